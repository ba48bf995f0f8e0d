package dev.modelplane.operator.llmkube;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import io.javaoperatorsdk.operator.api.reconciler.Context;

/** Hands the objects the reconciler built to its dependents for the rest of one reconcile. */
final class IsvcContext {
  private IsvcContext() {
  }

  static void put(Context<InferenceService> context, IsvcObjects objects) {
    context.managedWorkflowAndDependentResourceContext().put(IsvcObjects.class, objects);
  }

  static IsvcObjects objects(Context<InferenceService> context) {
    return context.managedWorkflowAndDependentResourceContext().getMandatory(IsvcObjects.class, IsvcObjects.class);
  }
}
