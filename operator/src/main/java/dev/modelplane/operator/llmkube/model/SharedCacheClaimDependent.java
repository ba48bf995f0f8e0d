package dev.modelplane.operator.llmkube.model;

import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.operator.common.CreateOrTake;
import dev.modelplane.operator.common.OperatorLabels;
import dev.modelplane.operator.llmkube.ModelStaging;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.Creator;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.event.ResourceID;

/**
 * The namespace's shared cache claim {@code llmkube-model-cache} that prefetch Jobs download into: created when
 * missing, never updated (someone may have sized it), never owned and never deleted — serving pods of every
 * InferenceService in the namespace use it too.
 */
@KubernetesDependent(informer = @Informer(labelSelector = OperatorLabels.MANAGED_SELECTOR))
public class SharedCacheClaimDependent extends KubernetesDependentResource<PersistentVolumeClaim, Model>
    implements Creator<PersistentVolumeClaim, Model> {

  public SharedCacheClaimDependent() {
    super(PersistentVolumeClaim.class);
  }

  @Override
  protected PersistentVolumeClaim desired(Model primary, Context<Model> context) {
    return ModelContext.prefetch(context).claim();
  }

  @Override
  protected ResourceID targetSecondaryResourceID(Model primary, Context<Model> context) {
    return new ResourceID(ModelStaging.SHARED_CACHE_CLAIM, primary.getMetadata().getNamespace());
  }

  /** Another controller may create the claim between our cache read and our create: take theirs. */
  @Override
  public PersistentVolumeClaim create(PersistentVolumeClaim desired, Model primary, Context<Model> context) {
    return CreateOrTake.create(desired, context.getClient(), () -> super.create(desired, primary, context));
  }

  /** No owner and no back-reference to one Model: the claim belongs to the namespace. */
  @Override
  protected void addReferenceHandlingMetadata(PersistentVolumeClaim desired, Model primary) {
  }
}
