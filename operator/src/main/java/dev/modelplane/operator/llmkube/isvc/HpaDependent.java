package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.operator.common.ControllerReference;
import dev.modelplane.operator.common.OperatorLabels;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Condition;
import io.javaoperatorsdk.operator.processing.event.ResourceID;

/**
 * The InferenceService's HorizontalPodAutoscaler, from {@link IsvcHpaBuilder}; present only while autoscaling is on
 * (and the service is not stopped), deleted when it is turned off.
 */
@KubernetesDependent(informer = @Informer(labelSelector = OperatorLabels.MANAGED_SELECTOR))
public class HpaDependent extends CRUDKubernetesDependentResource<HorizontalPodAutoscaler, InferenceService> {
  public HpaDependent() {
    super(HorizontalPodAutoscaler.class);
  }

  /** A controller reference, as LLMKube sets it, rather than JOSDK's plain owner reference. */
  @Override
  protected void addReferenceHandlingMetadata(HorizontalPodAutoscaler desired, InferenceService primary) {
    ControllerReference.set(desired, primary);
  }

  @Override
  protected HorizontalPodAutoscaler desired(InferenceService primary, Context<InferenceService> context) {
    return IsvcContext.objects(context).hpa();
  }

  @Override
  protected ResourceID targetSecondaryResourceID(InferenceService primary, Context<InferenceService> context) {
    return new ResourceID(primary.getMetadata().getName(), primary.getMetadata().getNamespace());
  }

  /** Reconcile precondition: the plan has an HPA. */
  public static class Enabled implements Condition<HorizontalPodAutoscaler, InferenceService> {
    @Override
    public boolean isMet(DependentResource<HorizontalPodAutoscaler, InferenceService> dependent,
        InferenceService primary, Context<InferenceService> context) {
      return IsvcContext.objects(context).hpa() != null;
    }
  }
}
