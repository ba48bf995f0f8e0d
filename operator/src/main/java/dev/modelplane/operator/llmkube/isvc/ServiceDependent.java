package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.operator.common.ControllerReference;
import dev.modelplane.operator.common.OperatorLabels;
import dev.modelplane.operator.common.OwnCreations;
import io.fabric8.kubernetes.api.model.Service;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.event.ResourceID;

/** The InferenceService's Service, from {@link IsvcServiceBuilder}. */
@KubernetesDependent(informer = @Informer(labelSelector = OperatorLabels.MANAGED_SELECTOR,
    onAddFilter = OwnCreations.class))
public class ServiceDependent extends CRUDKubernetesDependentResource<Service, InferenceService> {
  public ServiceDependent() {
    super(Service.class);
  }

  /** A controller reference, as LLMKube sets it, rather than JOSDK's plain owner reference. */
  @Override
  protected void addReferenceHandlingMetadata(Service desired, InferenceService primary) {
    ControllerReference.set(desired, primary);
  }

  @Override
  protected Service desired(InferenceService primary, Context<InferenceService> context) {
    return IsvcContext.objects(context).service();
  }

  @Override
  protected ResourceID targetSecondaryResourceID(InferenceService primary, Context<InferenceService> context) {
    return new ResourceID(ServingPlan.serviceName(primary.getMetadata().getName()),
        primary.getMetadata().getNamespace());
  }
}
