package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.operator.common.ControllerReference;
import dev.modelplane.operator.common.OperatorLabels;
import dev.modelplane.operator.common.OwnCreations;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The InferenceService's Deployment, from {@link IsvcDeploymentBuilder}. A Deployment whose selector differs (one
 * made by an older controller, such as LLMKube before its selector was made minimal) is deleted and created again,
 * since a selector cannot be changed in place. While an HPA manages the replica count, updates are conditional on the
 * Deployment not having changed since it was read. While {@link RolloutGate} holds a pod-template change back, only
 * the replica count is written.
 */
@KubernetesDependent(informer = @Informer(labelSelector = OperatorLabels.MANAGED_SELECTOR,
    onAddFilter = OwnCreations.class))
public class DeploymentDependent extends CRUDKubernetesDependentResource<Deployment, InferenceService> {
  private static final Logger LOG = LoggerFactory.getLogger(DeploymentDependent.class);

  public DeploymentDependent() {
    super(Deployment.class);
  }

  /** A controller reference, as LLMKube sets it, rather than JOSDK's plain owner reference. */
  @Override
  protected void addReferenceHandlingMetadata(Deployment desired, InferenceService primary) {
    ControllerReference.set(desired, primary);
  }

  @Override
  protected Deployment desired(InferenceService primary, Context<InferenceService> context) {
    return IsvcContext.objects(context).deployment();
  }

  @Override
  protected ResourceID targetSecondaryResourceID(InferenceService primary, Context<InferenceService> context) {
    return new ResourceID(primary.getMetadata().getName(), primary.getMetadata().getNamespace());
  }

  @Override
  public Deployment update(Deployment actual, Deployment desired, InferenceService primary,
      Context<InferenceService> context) {
    if (actual.getSpec() != null && actual.getSpec().getSelector() != null
        && !Objects.equals(actual.getSpec().getSelector().getMatchLabels(),
            desired.getSpec().getSelector().getMatchLabels())) {
      LOG.info("recreating deployment isvc={}/{} reason=selector-changed old={} new={}",
          primary.getMetadata().getNamespace(), primary.getMetadata().getName(),
          actual.getSpec().getSelector().getMatchLabels(), desired.getSpec().getSelector().getMatchLabels());
      context.getClient().resource(actual).delete();
      context.getClient().resource(actual).waitUntilCondition(Objects::isNull, 30, java.util.concurrent.TimeUnit.SECONDS);
      return create(desired, primary, context);
    }
    if (IsvcContext.deferTemplate(context)) {
      // rolloutPolicy.waitForIdle: the template waits; only a new replica count goes through now.
      Integer replicas = desired.getSpec().getReplicas();
      if (replicas != null && !replicas.equals(actual.getSpec().getReplicas())) {
        return context.getClient().apps().deployments().inNamespace(actual.getMetadata().getNamespace())
            .withName(actual.getMetadata().getName())
            .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":" + replicas + "}}");
      }
      return actual;
    }
    if (IsvcContext.objects(context).hpa() != null) {
      // The replica count is the live one, read at the start of the reconcile; if an autoscaler changed it since,
      // the apply must not put the old count back. The apply is conditional on the version the count was read from:
      // on a mismatch (here, or 409 from the API server) the reconciler simply runs again with the new count.
      String read = IsvcContext.liveVersion(context);
      if (read != null && !read.equals(actual.getMetadata().getResourceVersion())) {
        throw new KubernetesClientException("Deployment changed since its replica count was read", 409, null);
      }
      desired.getMetadata().setResourceVersion(actual.getMetadata().getResourceVersion());
    }
    return super.update(actual, desired, primary, context);
  }
}
