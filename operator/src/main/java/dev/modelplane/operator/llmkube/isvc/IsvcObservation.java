package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.AccelerationStatus;
import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.InferenceServiceStatus;
import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.scheduling.SchedulingInfo;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;

/**
 * What one reconcile of an InferenceService saw and did: the input of {@link IsvcStatusAggregator}.
 *
 * @param name the service's name
 * @param generation {@code metadata.generation}
 * @param previous the status before this reconcile, or null
 * @param observed what the caches, the API and the pods showed before anything was applied, and the plan made of it
 * @param applied what applying left behind
 */
public record IsvcObservation(String name, long generation, InferenceServiceStatus previous, Observed observed,
    Applied applied) {

  /**
   * What was seen before anything was applied.
   *
   * @param model the referenced Models' state (failed too when the plan found a Model invalid)
   * @param problems validation problems, then what the workload policy refuses
   * @param scheduling why pods are not scheduled, or null when nothing is applied
   * @param effectivePriority value of the PriorityClass the pods use, or null when unknown
   * @param endpoint the endpoint URL, or null before a plan exists
   * @param gpuCount GPUs per pod
   * @param gpuResource the GPU resource requested
   * @param suspended {@code spec.suspend} holds the service at zero pods
   * @param mode the resolved serving mode ({@code chat}, {@code embedding}, {@code rerank})
   * @param acceleration where the server placed the model, read from its log; null keeps the previous value
   * @param rollout the {@code rolloutPolicy.waitForIdle} decision, or null when the service does not wait
   */
  public record Observed(
      ModelGate model,
      List<FieldProblem> problems,
      SchedulingInfo scheduling,
      Integer effectivePriority,
      String endpoint,
      int gpuCount,
      String gpuResource,
      boolean suspended,
      String mode,
      AccelerationStatus acceleration,
      RolloutGate.Decision rollout) {

    public Observed {
      problems = problems == null ? List.of() : List.copyOf(problems);
    }

    /** Whether the pods are waiting for GPUs the scheduler cannot find. */
    public boolean waitingForGpu() {
      return scheduling != null && SchedulingInfo.INSUFFICIENT_GPU.equals(scheduling.status());
    }
  }

  /**
   * What applying the owned objects left behind.
   *
   * @param deployment the Deployment after applying, or null
   * @param reconcileError why applying the owned objects failed, or null
   * @param desiredReplicas replicas wanted now (the HPA's count while it manages the service)
   * @param queuePosition 1-based GPU queue position, 0 when not queued
   * @param integrations the SLO and gateway outcome, or null when nothing was applied (the previous state stays)
   */
  public record Applied(
      Deployment deployment,
      String reconcileError,
      int desiredReplicas,
      int queuePosition,
      IntegrationApplier.Outcome integrations) {
  }

  /**
   * The referenced Models (the served one and a draft one) as the service sees them.
   *
   * @param state found and Ready, found but not Ready, failed, or missing
   * @param field the field naming the Model at fault ({@code spec.modelRef} or
   *     {@code spec.speculativeDecoding.draftModelRef})
   * @param message why, for the non-Ready states
   */
  public record ModelGate(State state, String field, String message) {
    public enum State { READY, NOT_READY, FAILED, MISSING }

    public static final ModelGate READY = new ModelGate(State.READY, "spec.modelRef", "");

    /** The more serious of two gates: missing or failed, then not ready, then ready. */
    public ModelGate worst(ModelGate other) {
      return other.state.ordinal() > state.ordinal() ? other : this;
    }
  }

  /**
   * The replicas the service should have now: 0 when suspended, the live count while an HPA manages it, else
   * {@code spec.replicas} (1 when unset).
   */
  static int desiredReplicas(InferenceService isvc, ServingPlan plan, Deployment live) {
    if (Boolean.TRUE.equals(isvc.getSpec().suspend())) {
      return 0;
    }
    if (plan == null) {
      return isvc.getSpec().replicas() == null ? 1 : isvc.getSpec().replicas();
    }
    Integer liveReplicas = live == null || live.getSpec() == null ? null : live.getSpec().getReplicas();
    return plan.autoscaling() && liveReplicas != null && liveReplicas > 0 ? liveReplicas : plan.replicas();
  }
}
