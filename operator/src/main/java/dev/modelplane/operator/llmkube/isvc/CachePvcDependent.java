package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.operator.common.ControllerReference;
import dev.modelplane.operator.common.CreateOrTake;
import dev.modelplane.operator.common.OperatorLabels;
import dev.modelplane.operator.llmkube.ModelStaging;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResource;
import io.javaoperatorsdk.operator.api.reconciler.dependent.GarbageCollected;
import io.javaoperatorsdk.operator.processing.dependent.Creator;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Condition;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.Objects;

/**
 * The model-cache claim, from {@link ModelCachePvcBuilder}. Created when missing and never updated (a claim's spec is
 * mostly immutable, and the shared claim may have been sized by someone else). A per-service claim is owned by its
 * InferenceService; the shared {@code llmkube-model-cache} claim has no owner and is never deleted by the operator.
 */
@KubernetesDependent(informer = @Informer(labelSelector = OperatorLabels.MANAGED_SELECTOR))
public class CachePvcDependent extends KubernetesDependentResource<PersistentVolumeClaim, InferenceService>
    implements Creator<PersistentVolumeClaim, InferenceService>, GarbageCollected<InferenceService> {

  public CachePvcDependent() {
    super(PersistentVolumeClaim.class);
  }

  @Override
  protected PersistentVolumeClaim desired(InferenceService primary, Context<InferenceService> context) {
    return IsvcContext.objects(context).cacheClaim();
  }

  @Override
  protected ResourceID targetSecondaryResourceID(InferenceService primary, Context<InferenceService> context) {
    PersistentVolumeClaim claim = IsvcContext.objects(context).cacheClaim();
    String name = claim != null ? claim.getMetadata().getName()
        : ServingPlan.cacheClaimName(primary.getMetadata().getName());
    return new ResourceID(name, primary.getMetadata().getNamespace());
  }

  /** Another service may create the shared claim between our cache read and our create: take theirs. */
  @Override
  public PersistentVolumeClaim create(PersistentVolumeClaim desired, InferenceService primary,
      Context<InferenceService> context) {
    return CreateOrTake.create(desired, context.getClient(), () -> super.create(desired, primary, context));
  }

  @Override
  protected void addReferenceHandlingMetadata(PersistentVolumeClaim desired, InferenceService primary) {
    if (!ModelStaging.SHARED_CACHE_CLAIM.equals(desired.getMetadata().getName())) {
      ControllerReference.set(desired, primary);
    }
  }

  @Override
  protected void handleDelete(InferenceService primary, PersistentVolumeClaim secondary,
      Context<InferenceService> context) {
    if (secondary != null && ownedBy(secondary, primary)) {
      super.handleDelete(primary, secondary, context);
    }
  }

  private static boolean ownedBy(PersistentVolumeClaim claim, InferenceService primary) {
    for (OwnerReference ref : claim.getMetadata().getOwnerReferences()) {
      if (Objects.equals(ref.getUid(), primary.getMetadata().getUid())) {
        return true;
      }
    }
    return false;
  }

  /** Reconcile precondition: the plan uses a cache claim. */
  public static class Needed implements Condition<PersistentVolumeClaim, InferenceService> {
    @Override
    public boolean isMet(DependentResource<PersistentVolumeClaim, InferenceService> dependent,
        InferenceService primary, Context<InferenceService> context) {
      return IsvcContext.objects(context).cacheClaim() != null;
    }
  }
}
