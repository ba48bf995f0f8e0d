package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import io.javaoperatorsdk.operator.api.reconciler.Context;

/** Hands the objects the reconciler built to its dependents for the rest of one reconcile. */
final class IsvcContext {
  private IsvcContext() {
  }

  static void put(Context<InferenceService> context, IsvcObjects objects) {
    context.managedWorkflowAndDependentResourceContext().put(IsvcObjects.class, objects);
  }

  /** The resourceVersion of the Deployment whose replica count the objects were built with. */
  static void putLiveVersion(Context<InferenceService> context, String resourceVersion) {
    if (resourceVersion != null) {
      context.managedWorkflowAndDependentResourceContext().put(LIVE_VERSION, resourceVersion);
    }
  }

  static String liveVersion(Context<InferenceService> context) {
    return context.managedWorkflowAndDependentResourceContext().get(LIVE_VERSION, String.class).orElse(null);
  }

  private static final String LIVE_VERSION = "live-deployment-version";
  private static final String DEFER_TEMPLATE = "defer-pod-template";

  /** Holds the pod-template change back for this reconcile ({@code rolloutPolicy.waitForIdle}). */
  static void putDeferTemplate(Context<InferenceService> context, boolean defer) {
    context.managedWorkflowAndDependentResourceContext().put(DEFER_TEMPLATE, defer);
  }

  static boolean deferTemplate(Context<InferenceService> context) {
    return context.managedWorkflowAndDependentResourceContext().get(DEFER_TEMPLATE, Boolean.class).orElse(false);
  }

  static IsvcObjects objects(Context<InferenceService> context) {
    return context.managedWorkflowAndDependentResourceContext().getMandatory(IsvcObjects.class, IsvcObjects.class);
  }
}
