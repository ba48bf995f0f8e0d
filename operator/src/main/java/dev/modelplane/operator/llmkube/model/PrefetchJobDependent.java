package dev.modelplane.operator.llmkube.model;

import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.operator.common.OperatorLabels;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.GarbageCollected;
import io.javaoperatorsdk.operator.processing.dependent.Creator;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.Optional;

/**
 * The Model's prefetch Job, from {@link PrefetchJobBuilder}: created when missing and never updated (a Job's template
 * is immutable; a changed source gets a Job with a new name). Owned by the Model (the builder sets the reference), so
 * it goes when the Model goes, and the owner reference maps its status changes to the Model's reconciler.
 */
@KubernetesDependent(informer = @Informer(labelSelector = OperatorLabels.MANAGED_SELECTOR))
public class PrefetchJobDependent extends KubernetesDependentResource<Job, Model>
    implements Creator<Job, Model>, GarbageCollected<Model> {

  public PrefetchJobDependent() {
    super(Job.class);
  }

  @Override
  protected Job desired(Model primary, Context<Model> context) {
    return ModelContext.prefetch(context).job();
  }

  @Override
  protected ResourceID targetSecondaryResourceID(Model primary, Context<Model> context) {
    return ResourceID.fromResource(ModelContext.prefetch(context).job());
  }

  /** The owner reference is part of the built Job. */
  @Override
  protected void addReferenceHandlingMetadata(Job desired, Model primary) {
  }

  /** The Job as the operator last saw or created it (the informer's cache, which includes our own creates). */
  static Optional<Job> current(Context<Model> context, ResourceID id) {
    @SuppressWarnings("unchecked")
    var source = (InformerEventSource<Job, Model>) context.eventSourceRetriever().getEventSourceFor(Job.class);
    return source.get(id);
  }
}
