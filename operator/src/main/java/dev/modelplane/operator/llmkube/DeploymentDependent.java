package dev.modelplane.operator.llmkube;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import io.fabric8.kubernetes.api.model.apps.Deployment;
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
 * since a selector cannot be changed in place.
 */
@KubernetesDependent(informer = @Informer(labelSelector = IsvcLabels.MANAGED_SELECTOR))
public class DeploymentDependent extends CRUDKubernetesDependentResource<Deployment, InferenceService> {
  private static final Logger LOG = LoggerFactory.getLogger(DeploymentDependent.class);

  public DeploymentDependent() {
    super(Deployment.class);
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
    return super.update(actual, desired, primary, context);
  }
}
