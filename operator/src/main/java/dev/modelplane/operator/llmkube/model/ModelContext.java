package dev.modelplane.operator.llmkube.model;

import dev.modelplane.api.llmkube.v1alpha1.Model;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.javaoperatorsdk.operator.api.reconciler.Context;

/** Hands the objects the Model reconciler built to its dependents for the rest of one reconcile. */
final class ModelContext {
  private ModelContext() {
  }

  /**
   * What a prefetch needs.
   *
   * @param claim the shared cache claim as it is created when missing
   * @param job the prefetch Job for the current source
   */
  record Prefetch(PersistentVolumeClaim claim, Job job) {
  }

  static void put(Context<Model> context, Prefetch prefetch) {
    context.managedWorkflowAndDependentResourceContext().put(Prefetch.class, prefetch);
  }

  static Prefetch prefetch(Context<Model> context) {
    return context.managedWorkflowAndDependentResourceContext().getMandatory(Prefetch.class, Prefetch.class);
  }
}
