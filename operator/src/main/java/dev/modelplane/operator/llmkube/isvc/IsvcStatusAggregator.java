package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.InferenceServicePhase;
import dev.modelplane.api.llmkube.v1alpha1.InferenceServiceStatus;
import dev.modelplane.operator.common.Conditions;
import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.llmkube.IsvcLabels;
import dev.modelplane.operator.llmkube.isvc.IsvcObservation.Applied;
import dev.modelplane.operator.llmkube.isvc.IsvcObservation.Observed;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The one place an InferenceService's status is built. Phase, first match wins: Suspended ({@code spec.suspend}),
 * Failed (Model missing or failed, a
 * fatal spec problem, or objects that could not be applied and do not exist), Pending (Model not Ready), Ready (all
 * desired replicas ready, at least one), Progressing (some ready), Stopped (0 desired), WaitingForGPU (the scheduler
 * reports an insufficient GPU resource), else Creating.
 *
 * <p>Conditions Available, Progressing and Degraded are always present, GPUAvailable when the pods ask for GPUs; each
 * carries the generation and keeps its {@code lastTransitionTime} until its status changes. {@code lastUpdated}
 * moves only when something else in the status changed, so an unchanged status is never written again.
 */
public final class IsvcStatusAggregator {
  public static final String AVAILABLE = "Available";
  public static final String PROGRESSING = "Progressing";
  public static final String DEGRADED = "Degraded";
  public static final String GPU_AVAILABLE = "GPUAvailable";
  public static final String ROLLOUT_DEFERRED = "RolloutDeferred";

  private IsvcStatusAggregator() {
  }

  public static InferenceServiceStatus aggregate(IsvcObservation o, Instant now) {
    Observed seen = o.observed();
    Applied done = o.applied();
    InferenceServiceStatus prev = o.previous();
    DeploymentStatus live = done.deployment() == null ? null : done.deployment().getStatus();
    int ready = live == null || live.getReadyReplicas() == null ? 0 : live.getReadyReplicas();
    int observed = live == null || live.getReplicas() == null ? 0 : live.getReplicas();
    int desired = done.desiredReplicas();
    List<FieldProblem> fatal = seen.problems().stream().filter(FieldProblem::fatal).toList();
    InferenceServicePhase phase = phase(o, fatal, ready, desired);
    boolean waiting = phase == InferenceServicePhase.WAITING_FOR_GPU;
    long gen = o.generation();
    List<Condition> c = prev == null ? List.of() : prev.conditions();

    String readyMessage = ready + "/" + desired + " replicas ready";
    c = ready > 0 && phase != InferenceServicePhase.SUSPENDED
        ? Conditions.set(c, AVAILABLE, Conditions.TRUE, phase == InferenceServicePhase.READY ? "InferenceReady"
            : "PartiallyReady", readyMessage, gen, now)
        : Conditions.set(c, AVAILABLE, Conditions.FALSE, unavailableReason(phase), readyMessage, gen, now);

    c = switch (phase) {
      case PENDING -> Conditions.set(c, PROGRESSING, Conditions.TRUE, "Pending", seen.model().message(), gen, now);
      case CREATING -> Conditions.set(c, PROGRESSING, Conditions.TRUE, "Creating",
          "Creating inference service (" + readyMessage + ")", gen, now);
      case PROGRESSING -> Conditions.set(c, PROGRESSING, Conditions.TRUE, "Progressing", readyMessage, gen, now);
      case WAITING_FOR_GPU -> Conditions.set(c, PROGRESSING, Conditions.TRUE, "WaitingForGPU",
          "Queued at position " + done.queuePosition() + " waiting for GPU", gen, now);
      case READY -> Conditions.set(c, PROGRESSING, Conditions.FALSE, "Ready", readyMessage, gen, now);
      case STOPPED -> Conditions.set(c, PROGRESSING, Conditions.FALSE, "Stopped", "Scaled to 0 replicas", gen, now);
      case SUSPENDED -> Conditions.set(c, PROGRESSING, Conditions.FALSE, "Suspended", "spec.suspend is true", gen,
          now);
      case FAILED -> Conditions.set(c, PROGRESSING, Conditions.FALSE, "Failed", "", gen, now);
    };

    c = degraded(c, o, fatal, gen, now);

    if (seen.gpuCount() > 0) {
      boolean exceeds = seen.problems().stream().anyMatch(p -> p.reason().equals("ExceedsNodeCapacity"));
      c = waiting ? Conditions.set(c, GPU_AVAILABLE, Conditions.FALSE, "InsufficientGPU",
              "Waiting for GPU resources: " + waitingFor(seen), gen, now)
          : exceeds ? Conditions.set(c, GPU_AVAILABLE, Conditions.FALSE, "ExceedsNodeCapacity",
              seen.gpuCount() + " " + seen.gpuResource() + " per pod exceeds every node", gen, now)
          : Conditions.set(c, GPU_AVAILABLE, Conditions.TRUE, "GPUsAvailable", "", gen, now);
    } else {
      c = Conditions.remove(c, GPU_AVAILABLE);
    }

    if (seen.rollout() != null) {
      c = Conditions.set(c, ROLLOUT_DEFERRED, seen.rollout().defer() ? Conditions.TRUE : Conditions.FALSE,
          seen.rollout().reason(), seen.rollout().message(), gen, now);
    } else if (seen.model().state() == IsvcObservation.ModelGate.State.READY) {
      c = Conditions.remove(c, ROLLOUT_DEFERRED);
    }

    if (done.integrations() != null) {
      c = integration(c, IntegrationApplier.SLO_READY, done.integrations().slo(), gen, now);
      c = integration(c, IntegrationApplier.GATEWAY_READY, done.integrations().gateway(), gen, now);
    }

    boolean scheduled = seen.scheduling() != null;
    InferenceServiceStatus next = new InferenceServiceStatus(
        phase,
        c,
        seen.model().state() == IsvcObservation.ModelGate.State.READY,
        seen.endpoint(),
        observed,
        ready,
        desired,
        IsvcLabels.selectorString(o.name()),
        seen.effectivePriority(),
        waiting ? done.queuePosition() : 0,
        scheduled ? seen.scheduling().status() : null,
        scheduled ? seen.scheduling().message() : null,
        waiting ? waitingFor(seen) : null,
        prev == null ? null : prev.lastUpdated(),
        seen.mode(),
        seen.acceleration() != null ? seen.acceleration() : prev == null ? null : prev.acceleration(),
        done.integrations() != null ? done.integrations().gatewayStatus() : prev == null ? null : prev.gateway());
    if (prev != null && withoutTimestamp(prev).equals(withoutTimestamp(next))) {
      return prev;
    }
    return withTimestamp(next, now.truncatedTo(ChronoUnit.SECONDS).toString());
  }

  private static List<Condition> integration(List<Condition> c, String type, IntegrationApplier.State state, long gen,
      Instant now) {
    return state == null ? Conditions.remove(c, type)
        : Conditions.set(c, type, state.ready() ? Conditions.TRUE : Conditions.FALSE, state.reason(), state.message(),
            gen, now);
  }

  static InferenceServicePhase phase(IsvcObservation o, List<FieldProblem> fatal, int ready, int desired) {
    Observed seen = o.observed();
    Applied done = o.applied();
    if (seen.suspended()) {
      return InferenceServicePhase.SUSPENDED;
    }
    switch (seen.model().state()) {
      case MISSING, FAILED -> {
        return InferenceServicePhase.FAILED;
      }
      default -> {
      }
    }
    if (!fatal.isEmpty() || (done.reconcileError() != null && done.deployment() == null)) {
      return InferenceServicePhase.FAILED;
    }
    if (ready == 0 && desired > 0 && replicaFailure(done) != null) {
      return InferenceServicePhase.FAILED;
    }
    if (seen.model().state() == IsvcObservation.ModelGate.State.NOT_READY) {
      return InferenceServicePhase.PENDING;
    }
    if (desired > 0 && ready >= desired) {
      return InferenceServicePhase.READY;
    }
    if (ready > 0) {
      return InferenceServicePhase.PROGRESSING;
    }
    if (desired == 0) {
      return InferenceServicePhase.STOPPED;
    }
    if (seen.waitingForGpu()) {
      return InferenceServicePhase.WAITING_FOR_GPU;
    }
    return InferenceServicePhase.CREATING;
  }

  private static String unavailableReason(InferenceServicePhase phase) {
    return switch (phase) {
      case FAILED -> "Failed";
      case PENDING -> "ModelNotReady";
      case STOPPED -> "ManuallyScaledToZero";
      case SUSPENDED -> "Suspended";
      case WAITING_FOR_GPU -> "WaitingForGPU";
      default -> "NoReadyReplicas";
    };
  }

  private static List<Condition> degraded(List<Condition> c, IsvcObservation o, List<FieldProblem> fatal, long gen,
      Instant now) {
    List<FieldProblem> problems = problems(o);
    if (problems.isEmpty()) {
      return Conditions.set(c, DEGRADED, Conditions.FALSE, "AsExpected", "", gen, now);
    }
    StringBuilder message = new StringBuilder();
    for (FieldProblem p : problems) {
      append(message, p.describe());
    }
    return Conditions.set(c, DEGRADED, Conditions.TRUE, problems.getFirst().reason(), message.toString(), gen, now);
  }

  /**
   * Everything wrong, most serious first: the Model, then fatal spec problems, then objects that could not be
   * applied, then the rest. Each is one entry of the Degraded message and one Warning Event.
   */
  public static List<FieldProblem> problems(IsvcObservation o) {
    Observed seen = o.observed();
    Applied done = o.applied();
    List<FieldProblem> all = new java.util.ArrayList<>();
    switch (seen.model().state()) {
      case MISSING -> all.add(FieldProblem.fatal(seen.model().field(), "ModelNotFound", seen.model().message()));
      case FAILED -> all.add(FieldProblem.fatal(seen.model().field(), "ModelFailed", seen.model().message()));
      default -> {
      }
    }
    seen.problems().stream().filter(FieldProblem::fatal).forEach(all::add);
    if (done.reconcileError() != null) {
      all.add(FieldProblem.warning("", "ReconcileError", done.reconcileError()));
    }
    String failure = replicaFailure(done);
    if (failure != null) {
      all.add(FieldProblem.warning(fieldOf(failure), "ReplicaFailure", "pods cannot be created: " + failure));
    }
    seen.problems().stream().filter(p -> !p.fatal()).forEach(all::add);
    return all;
  }

  /** The Deployment's ReplicaFailure message (the API server refused its pods), or null. */
  static String replicaFailure(Applied done) {
    return done.deployment() == null ? null : ReplicaSetNudge.replicaFailure(done.deployment());
  }

  /** The spec field a pod-admission error points at, when it names one. */
  static String fieldOf(String message) {
    if (message.contains("RuntimeClass")) {
      return "spec.runtimeClassName";
    }
    if (message.contains("PriorityClass") || message.contains("priorityclass")) {
      return "spec.priorityClassName";
    }
    if (message.contains("exceeded quota") || message.contains("LimitRange") || message.contains("must be less than")) {
      return "spec.resources";
    }
    if (message.contains("securityContext") || message.contains("PodSecurity")) {
      return "spec.securityContext";
    }
    return "spec";
  }

  private static void append(StringBuilder message, String text) {
    if (!message.isEmpty()) {
      message.append("; ");
    }
    message.append(text);
  }

  /** {@code <resource>: <count>}, with the count the pods really request. */
  static String waitingFor(Observed seen) {
    String resource = seen.scheduling() != null && seen.scheduling().gpuResource() != null
        ? seen.scheduling().gpuResource() : seen.gpuResource();
    return resource + ": " + seen.gpuCount();
  }

  private static InferenceServiceStatus withoutTimestamp(InferenceServiceStatus s) {
    return withTimestamp(s, null);
  }

  private static InferenceServiceStatus withTimestamp(InferenceServiceStatus s, String time) {
    return new InferenceServiceStatus(s.phase(), s.conditions(), s.modelReady(), s.endpoint(), s.replicas(),
        s.readyReplicas(), s.desiredReplicas(), s.selector(), s.effectivePriority(), s.queuePosition(),
        s.schedulingStatus(), s.schedulingMessage(), s.waitingFor(), time, s.mode(), s.acceleration(), s.gateway());
  }

  /** The problems not already reported in the previous Degraded condition: the ones to announce as Events. */
  public static List<FieldProblem> newProblems(InferenceServiceStatus previous, List<FieldProblem> problems) {
    Condition old = previous == null ? null : Conditions.find(previous.conditions(), DEGRADED);
    String known = old == null || !Conditions.TRUE.equals(old.getStatus()) ? "" : Objects.toString(old.getMessage());
    return problems.stream().filter(p -> !known.contains(p.describe())).collect(Collectors.toList());
  }
}
