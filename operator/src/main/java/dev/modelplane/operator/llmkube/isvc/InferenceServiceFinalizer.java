package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;

/**
 * Holds the finalizer {@code inferenceservices.inference.llmkube.dev/finalizer} on every InferenceService and, when
 * one is deleted, takes it out of the GPU queue before the finalizer goes. A controller of its own so that adding the
 * finalizer (a pass JOSDK runs before any reconcile of a new resource) runs beside the InferenceService reconciler
 * instead of in front of it: a new service's Deployment does not wait for the finalizer's round trip.
 */
@ControllerConfiguration(name = InferenceServiceFinalizer.NAME)
public class InferenceServiceFinalizer implements Reconciler<InferenceService>, Cleaner<InferenceService> {
  public static final String NAME = "llmkube-inferenceservice-finalizer";

  private final LlmkubeInferenceServiceReconciler services;

  public InferenceServiceFinalizer(LlmkubeInferenceServiceReconciler services) {
    this.services = services;
  }

  @Override
  public UpdateControl<InferenceService> reconcile(InferenceService isvc, Context<InferenceService> context) {
    return UpdateControl.noUpdate();
  }

  @Override
  public DeleteControl cleanup(InferenceService isvc, Context<InferenceService> context) {
    services.forget(isvc);
    return DeleteControl.defaultDelete();
  }
}
