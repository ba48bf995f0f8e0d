package dev.modelplane.operator.llmkube.isvc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.llmkube.v1alpha1.AccelerationStatus;
import dev.modelplane.api.llmkube.v1alpha1.InferenceServicePhase;
import dev.modelplane.api.llmkube.v1alpha1.InferenceServiceStatus;
import dev.modelplane.operator.common.Conditions;
import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.llmkube.isvc.IsvcObservation.Applied;
import dev.modelplane.operator.llmkube.isvc.IsvcObservation.ModelGate;
import dev.modelplane.operator.llmkube.isvc.IsvcObservation.Observed;
import dev.modelplane.operator.scheduling.SchedulingInfo;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class IsvcStatusAggregatorTest {
  private static final Instant T1 = Instant.parse("2026-11-01T10:00:00Z");
  private static final Instant T2 = Instant.parse("2026-11-01T10:05:00Z");
  private static final SchedulingInfo NO_GPU = new SchedulingInfo(SchedulingInfo.INSUFFICIENT_GPU,
      "0/2 nodes are available: 2 Insufficient amd.com/gpu.", "amd.com/gpu");

  private static Deployment deployment(int replicas, int ready) {
    return new DeploymentBuilder().withNewSpec().withReplicas(replicas).endSpec()
        .withNewStatus().withReplicas(replicas).withReadyReplicas(ready).endStatus().build();
  }

  private static IsvcObservation obs(InferenceServiceStatus prev, ModelGate gate, List<FieldProblem> problems,
      Deployment d, int desired, SchedulingInfo scheduling, int position, int gpus) {
    return new IsvcObservation("chat", 3, prev, new Observed(gate, problems, scheduling, 100000,
        "http://chat.ns.svc.cluster.local:8080/v1/chat/completions", gpus, gpus > 0 ? "amd.com/gpu" : "nvidia.com/gpu",
        false, "chat", null, null), new Applied(d, null, desired, position, null));
  }

  /** A service with one ready pod of one wanted, 10000 priority, no GPU queue, no integrations. */
  private static IsvcObservation oneReady(InferenceServiceStatus prev, int gpus, boolean suspended, String mode,
      AccelerationStatus acceleration, RolloutGate.Decision rollout) {
    return new IsvcObservation("chat", 1, prev, new Observed(ModelGate.READY, List.of(), null, 10000, null, gpus,
        "nvidia.com/gpu", suspended, mode, acceleration, rollout),
        new Applied(deployment(1, 1), null, suspended ? 0 : 1, 0, null));
  }

  private static Condition condition(InferenceServiceStatus s, String type) {
    return Conditions.find(s.conditions(), type);
  }

  @Test
  void phasesInOrder() {
    ModelGate ready = ModelGate.READY;
    assertThat(phase(obs(null, new ModelGate(ModelGate.State.MISSING, "spec.modelRef", "Model m not found"),
        List.of(), null, 1, null, 0, 0))).isEqualTo(InferenceServicePhase.FAILED);
    assertThat(phase(obs(null, new ModelGate(ModelGate.State.NOT_READY, "spec.modelRef", "waiting"), List.of(), null, 1, null, 0, 0)))
        .isEqualTo(InferenceServicePhase.PENDING);
    assertThat(phase(obs(null, ready, List.of(FieldProblem.fatal("spec.image", "MissingImage", "required")),
        null, 1, null, 0, 0))).isEqualTo(InferenceServicePhase.FAILED);
    assertThat(phase(obs(null, ready, List.of(), deployment(2, 2), 2, null, 0, 0)))
        .isEqualTo(InferenceServicePhase.READY);
    assertThat(phase(obs(null, ready, List.of(), deployment(2, 1), 2, null, 0, 0)))
        .isEqualTo(InferenceServicePhase.PROGRESSING);
    assertThat(phase(obs(null, ready, List.of(), deployment(0, 0), 0, null, 0, 0)))
        .isEqualTo(InferenceServicePhase.STOPPED);
    assertThat(phase(obs(null, ready, List.of(), deployment(1, 0), 1, NO_GPU, 2, 1)))
        .isEqualTo(InferenceServicePhase.WAITING_FOR_GPU);
    assertThat(phase(obs(null, ready, List.of(), deployment(1, 0), 1, null, 0, 0)))
        .isEqualTo(InferenceServicePhase.CREATING);
  }

  private static InferenceServicePhase phase(IsvcObservation o) {
    return IsvcStatusAggregator.aggregate(o, T1).phase();
  }

  @Test
  void waitingForGpuNamesTheRealCountAndResourceAndTheQueuePosition() {
    InferenceServiceStatus s = IsvcStatusAggregator.aggregate(
        obs(null, ModelGate.READY, List.of(), deployment(1, 0), 1, NO_GPU, 3, 2), T1);
    assertThat(s.waitingFor()).isEqualTo("amd.com/gpu: 2");
    assertThat(s.queuePosition()).isEqualTo(3);
    assertThat(s.schedulingStatus()).isEqualTo("InsufficientGPU");
    assertThat(s.schedulingMessage()).contains("Insufficient amd.com/gpu");
    assertThat(condition(s, "GPUAvailable").getStatus()).isEqualTo("False");
    assertThat(condition(s, "GPUAvailable").getMessage()).isEqualTo("Waiting for GPU resources: amd.com/gpu: 2");
    assertThat(condition(s, "Progressing").getMessage()).isEqualTo("Queued at position 3 waiting for GPU");
    assertThat(condition(s, "Available").getReason()).isEqualTo("WaitingForGPU");
  }

  @Test
  void readyStatusFields() {
    InferenceServiceStatus s = IsvcStatusAggregator.aggregate(
        obs(null, ModelGate.READY, List.of(), deployment(2, 2), 2, null, 0, 1), T1);
    assertThat(s.replicas()).isEqualTo(2);
    assertThat(s.readyReplicas()).isEqualTo(2);
    assertThat(s.desiredReplicas()).isEqualTo(2);
    assertThat(s.modelReady()).isTrue();
    assertThat(s.selector()).isEqualTo("app=chat,inference.llmkube.dev/service=chat");
    assertThat(s.effectivePriority()).isEqualTo(100000);
    assertThat(s.queuePosition()).isZero();
    assertThat(s.waitingFor()).isNull();
    assertThat(s.lastUpdated()).isEqualTo("2026-11-01T10:00:00Z");
    assertThat(s.conditions()).extracting(Condition::getType)
        .containsExactly("Available", "Progressing", "Degraded", "GPUAvailable");
    assertThat(s.conditions()).allSatisfy(c -> assertThat(c.getObservedGeneration()).isEqualTo(3L));
    assertThat(condition(s, "Available").getReason()).isEqualTo("InferenceReady");
  }

  @Test
  void statusReplicasAreObservedNotDesired() {
    Deployment scalingUp = new DeploymentBuilder().withNewSpec().withReplicas(3).endSpec()
        .withNewStatus().withReplicas(1).withReadyReplicas(1).endStatus().build();
    InferenceServiceStatus s = IsvcStatusAggregator.aggregate(
        obs(null, ModelGate.READY, List.of(), scalingUp, 3, null, 0, 0), T1);
    assertThat(s.replicas()).isEqualTo(1);
    assertThat(s.desiredReplicas()).isEqualTo(3);
  }

  @Test
  void anUnchangedStatusIsReturnedAsIsAndTransitionTimesMoveOnlyOnChange() {
    InferenceServiceStatus first = IsvcStatusAggregator.aggregate(
        obs(null, ModelGate.READY, List.of(), deployment(1, 0), 1, null, 0, 0), T1);
    InferenceServiceStatus same = IsvcStatusAggregator.aggregate(
        obs(first, ModelGate.READY, List.of(), deployment(1, 0), 1, null, 0, 0), T2);
    assertThat(same).isSameAs(first);
    InferenceServiceStatus ready = IsvcStatusAggregator.aggregate(
        obs(first, ModelGate.READY, List.of(), deployment(1, 1), 1, null, 0, 0), T2);
    assertThat(ready.lastUpdated()).isEqualTo("2026-11-01T10:05:00Z");
    assertThat(condition(ready, "Available").getLastTransitionTime()).isEqualTo("2026-11-01T10:05:00Z");
    assertThat(condition(ready, "Degraded").getLastTransitionTime()).isEqualTo("2026-11-01T10:00:00Z");
  }

  @Test
  void degradedListsEveryProblemMostSeriousFirst() {
    List<FieldProblem> problems = List.of(
        FieldProblem.warning("spec.tgiConfig", "IgnoredField", "ignored"),
        FieldProblem.fatal("metadata.name", "InvalidName", "too long"));
    InferenceServiceStatus s = IsvcStatusAggregator.aggregate(
        obs(null, ModelGate.READY, problems, null, 1, null, 0, 0), T1);
    assertThat(s.phase()).isEqualTo(InferenceServicePhase.FAILED);
    assertThat(condition(s, "Degraded").getReason()).isEqualTo("InvalidName");
    assertThat(condition(s, "Degraded").getMessage()).isEqualTo(
        "metadata.name: too long; spec.tgiConfig: ignored");
    assertThat(IsvcStatusAggregator.newProblems(s, problems)).isEmpty();
    assertThat(IsvcStatusAggregator.newProblems(null, problems)).hasSize(2);
  }

  @Test
  void stoppedAndPendingConditions() {
    InferenceServiceStatus stopped = IsvcStatusAggregator.aggregate(
        obs(null, ModelGate.READY, List.of(), deployment(0, 0), 0, null, 0, 0), T1);
    assertThat(condition(stopped, "Available").getReason()).isEqualTo("ManuallyScaledToZero");
    assertThat(condition(stopped, "Progressing").getStatus()).isEqualTo("False");
    InferenceServiceStatus pending = IsvcStatusAggregator.aggregate(obs(null,
        new ModelGate(ModelGate.State.NOT_READY, "spec.modelRef", "Waiting for Model m to be Ready (phase Pending)"), List.of(), null,
        1, null, 0, 0), T1);
    assertThat(pending.modelReady()).isFalse();
    assertThat(condition(pending, "Progressing").getMessage())
        .isEqualTo("Waiting for Model m to be Ready (phase Pending)");
  }

  @Test
  void podsTheApiServerRefusesFailTheServiceNamingTheField() {
    Deployment refused = new DeploymentBuilder().withNewSpec().withReplicas(1).endSpec().withNewStatus()
        .addNewCondition().withType("ReplicaFailure").withStatus("True").withReason("FailedCreate")
        .withMessage("pods \"chat-1\" is forbidden: pod rejected: RuntimeClass \"nvidia\" not found").endCondition()
        .endStatus().build();
    InferenceServiceStatus s = IsvcStatusAggregator.aggregate(
        obs(null, ModelGate.READY, List.of(), refused, 1, null, 0, 0), T1);
    assertThat(s.phase()).isEqualTo(InferenceServicePhase.FAILED);
    assertThat(condition(s, "Degraded").getReason()).isEqualTo("ReplicaFailure");
    assertThat(condition(s, "Degraded").getMessage()).startsWith("spec.runtimeClassName: pods cannot be created");
  }

  @Test
  void accelerationReadFromTheLogIsReportedAndKeptUntilSomethingNewIsRead() {
    var acc = new AccelerationStatus("CUDA0 (NVIDIA L4)", 33, 33);
    IsvcObservation first = oneReady(null, 1, false, "chat", acc, null);
    InferenceServiceStatus s = IsvcStatusAggregator.aggregate(first, T1);
    assertThat(s.acceleration()).isEqualTo(acc);
    IsvcObservation later = oneReady(s, 1, false, "chat", null, null);
    assertThat(IsvcStatusAggregator.aggregate(later, T1).acceleration()).isEqualTo(acc);
  }

  @Test
  void suspendedWinsAndTheModeIsReported() {
    IsvcObservation o = oneReady(null, 0, true, "embedding", null, null);
    InferenceServiceStatus s = IsvcStatusAggregator.aggregate(o, T1);
    assertThat(s.phase()).isEqualTo(InferenceServicePhase.SUSPENDED);
    assertThat(s.mode()).isEqualTo("embedding");
    assertThat(condition(s, "Available").getReason()).isEqualTo("Suspended");
    assertThat(condition(s, "Available").getStatus()).isEqualTo("False");
  }

  @Test
  void aMissingDraftModelNamesItsField() {
    InferenceServiceStatus s = IsvcStatusAggregator.aggregate(obs(null, ModelGates.one(
        dev.modelplane.operator.TestObjects.isvc("modelRef: m"), ModelGates.DRAFT_REF, "d", null), List.of(), null,
        1, null, 0, 0), T1);
    assertThat(s.phase()).isEqualTo(InferenceServicePhase.FAILED);
    assertThat(condition(s, "Degraded").getMessage())
        .isEqualTo("spec.speculativeDecoding.draftModelRef: Model d not found in namespace ns");
  }

  @Test
  void theRolloutDecisionIsTheRolloutDeferredConditionWhoseTimeMarksWhenTheWaitBegan() {
    RolloutGate.Decision waiting = new RolloutGate.Decision(true, "WaitingForIdle", "waits", java.time.Duration.ofSeconds(5));
    IsvcObservation first = oneReady(null, 0, false, "chat", null, waiting);
    InferenceServiceStatus s = IsvcStatusAggregator.aggregate(first, T1);
    assertThat(condition(s, "RolloutDeferred").getStatus()).isEqualTo("True");
    assertThat(condition(s, "RolloutDeferred").getReason()).isEqualTo("WaitingForIdle");
    String since = condition(s, "RolloutDeferred").getLastTransitionTime();

    IsvcObservation again = oneReady(s, 0, false, "chat", null,
        new RolloutGate.Decision(true, "WaitingForIdle", "still waits", java.time.Duration.ofSeconds(5)));
    InferenceServiceStatus s2 = IsvcStatusAggregator.aggregate(again, T1.plusSeconds(30));
    assertThat(condition(s2, "RolloutDeferred").getLastTransitionTime()).isEqualTo(since);

    IsvcObservation off = oneReady(s2, 0, false, "chat", null, null);
    assertThat(IsvcStatusAggregator.aggregate(off, T1.plusSeconds(60)).conditions())
        .noneSatisfy(c -> assertThat(c.getType()).isEqualTo("RolloutDeferred"));
  }
}
