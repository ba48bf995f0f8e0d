package dev.modelplane.operator.otterscale.modelservice;

import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.aggregated;
import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.otterscale.v1alpha1.ModelServicePhase;
import dev.modelplane.api.otterscale.v1alpha1.ModelServiceStatus;
import dev.modelplane.operator.common.Conditions;
import dev.modelplane.operator.prefixrouting.PrecisePrefixStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ModelServiceStatusAggregatorTest {
  private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");

  private static Deployment deployment(int desired, int ready) {
    return new DeploymentBuilder().withNewMetadata().withName("d").endMetadata().withNewSpec().withReplicas(desired)
        .endSpec().withNewStatus().withReadyReplicas(ready).endStatus().build();
  }

  private static ModelServiceStatus status(Deployment decode, Deployment picker, String servingFailure,
      String pickerFailure) {
    return ModelServiceStatusAggregator.aggregate(aggregated(), new ModelServiceObservation(decode, null, picker,
        servingFailure, pickerFailure, null, Set.of(), Map.of(), null), NOW);
  }

  private static Condition ready(ModelServiceStatus s) {
    return Conditions.find(s.conditions(), "Ready");
  }

  @Test
  void phasesFollowOtterScalesOrderThenThePickersReadiness() {
    ModelServiceStatus pending = status(null, null, null, null);
    assertThat(pending.phase()).isEqualTo(ModelServicePhase.Pending);
    assertThat(ready(pending).getReason()).isEqualTo("DeploymentNotFound");
    ModelServiceStatus starting = status(deployment(2, 0), deployment(1, 1), null, null);
    assertThat(starting.phase()).isEqualTo(ModelServicePhase.Running);
    assertThat(ready(starting).getReason()).isEqualTo("PodsStarting");
    ModelServiceStatus partial = status(deployment(2, 1), deployment(1, 1), null, null);
    assertThat(ready(partial).getMessage()).isEqualTo("1/2 replicas ready");
    ModelServiceStatus pickerDown = status(deployment(2, 2), deployment(1, 0), null, null);
    assertThat(pickerDown.phase()).isEqualTo(ModelServicePhase.Running);
    assertThat(ready(pickerDown).getReason()).isEqualTo("EndpointPickerNotReady");
    ModelServiceStatus ready = status(deployment(2, 2), deployment(1, 1), null, null);
    assertThat(ready.phase()).isEqualTo(ModelServicePhase.Ready);
    assertThat(ready(ready).getStatus()).isEqualTo("True");
    assertThat(ready(ready).getMessage()).isEqualTo("All 2 replicas are ready");
    assertThat(ready.decodeReady()).isEqualTo(2);
    assertThat(ready.decodeReplicas()).isEqualTo(2);
    assertThat(ready.prefillReplicas()).isNull();
    assertThat(ready.observedGeneration()).isZero();
  }

  @Test
  void aStuckServingOrPickerPodIsFailedNamingThePod() {
    ModelServiceStatus failed = status(deployment(2, 1), deployment(1, 1),
        "qwen-decode-abc/vllm: CrashLoopBackOff: exit code 1", null);
    assertThat(failed.phase()).isEqualTo(ModelServicePhase.Failed);
    assertThat(ready(failed).getReason()).isEqualTo("ServingPodsFailing");
    assertThat(ready(failed).getMessage()).contains("qwen-decode-abc/vllm: CrashLoopBackOff");
    ModelServiceStatus picker = status(deployment(2, 2), deployment(1, 0), null, "qwen-epp-x/epp: ImagePullBackOff");
    assertThat(picker.phase()).isEqualTo(ModelServicePhase.Failed);
    assertThat(ready(picker).getReason()).isEqualTo("EndpointPickerFailing");
  }

  @Test
  void stuckContainersAreFoundInInitAndMainContainersButNotInDeletedPods() {
    Pod crashing = new PodBuilder().withNewMetadata().withName("p1").endMetadata().withNewStatus()
        .addNewInitContainerStatus().withName("model-unpack").withNewState().withNewWaiting()
        .withReason("CrashLoopBackOff").endWaiting().endState().withNewLastState().withNewTerminated()
        .withExitCode(1).withMessage("kit: unauthorized").endTerminated().endLastState().endInitContainerStatus()
        .endStatus().build();
    Pod pulling = new PodBuilder().withNewMetadata().withName("p2").endMetadata().withNewStatus()
        .addNewContainerStatus().withName("vllm").withNewState().withNewWaiting().withReason("ContainerCreating")
        .endWaiting().endState().endContainerStatus().endStatus().build();
    Pod going = new PodBuilder(crashing).editMetadata().withName("p0").withDeletionTimestamp("2026-11-26T11:00:00Z")
        .endMetadata().build();
    assertThat(ModelServiceObservation.firstFailure(List.of(pulling, going, crashing)))
        .isEqualTo("p1/model-unpack: CrashLoopBackOff: kit: unauthorized");
    assertThat(ModelServiceObservation.firstFailure(List.of(pulling))).isNull();
  }

  @Test
  void applyErrorsAndMissingKindsAreConditionsAndTransitionTimesMoveOnlyOnChange() {
    var ms = aggregated();
    ModelServiceStatus first = ModelServiceStatusAggregator.aggregate(ms, new ModelServiceObservation(
        deployment(1, 1), null, deployment(1, 1), null, null, null,
        Set.of("podmonitors.monitoring.coreos.com", "httproutes.gateway.networking.k8s.io"),
        Map.of("v1/Secret/x", "forbidden"), null), NOW);
    assertThat(ready(first).getReason()).isEqualTo("ReconcileError");
    assertThat(ready(first).getMessage()).isEqualTo("v1/Secret/x: forbidden");
    Condition missing = Conditions.find(first.conditions(), "OptionalKindsInstalled");
    assertThat(missing.getStatus()).isEqualTo("False");
    assertThat(missing.getMessage()).startsWith("not installed: httproutes.gateway.networking.k8s.io, "
        + "podmonitors.monitoring.coreos.com;");
    ms.setStatus(first);
    ModelServiceStatus later = ModelServiceStatusAggregator.aggregate(ms, new ModelServiceObservation(
        deployment(1, 1), null, deployment(1, 1), null, null, null, Set.of(), Map.of(), null), NOW.plusSeconds(60));
    assertThat(Conditions.find(later.conditions(), "OptionalKindsInstalled")).isNull();
    assertThat(ready(later).getStatus()).isEqualTo("True");
    assertThat(ready(later).getLastTransitionTime()).isEqualTo(NOW.plusSeconds(60).toString());
  }

  @Test
  void aClusterBindingNameTakenByAnotherOwnerIsReadyFalseWithItsOwnReason() {
    ModelServiceStatus s = ModelServiceStatusAggregator.aggregate(aggregated(), new ModelServiceObservation(
        deployment(1, 1), null, deployment(1, 1), null, null, "ClusterRoleBinding x exists and is not this "
        + "ModelService's", Set.of(), Map.of(), null), NOW);
    assertThat(ready(s).getStatus()).isEqualTo("False");
    assertThat(ready(s).getReason()).isEqualTo("ClusterBindingConflict");
    assertThat(ready(s).getMessage()).contains("ClusterRoleBinding x exists");
  }

  @Test
  void precisePrefixRoutingIsAConditionOfItsOwnThatNeverTouchesReadiness() {
    var ms = aggregated();
    ModelServiceStatus conflicting = ModelServiceStatusAggregator.aggregate(ms, new ModelServiceObservation(
        deployment(1, 1), null, deployment(1, 1), null, null, null, Set.of(), Map.of(),
        PrecisePrefixStatus.conflicting(List.of("spec.engine: --block-size 32 differs"))), NOW);
    Condition precise = Conditions.find(conflicting.conditions(), "PrecisePrefixRouting");
    assertThat(precise.getStatus()).isEqualTo("False");
    assertThat(precise.getReason()).isEqualTo("ConflictingSettings");
    assertThat(precise.getMessage()).isEqualTo("spec.engine: --block-size 32 differs");
    assertThat(ready(conflicting).getStatus()).isEqualTo("True");
    ms.setStatus(conflicting);
    ModelServiceStatus fixed = ModelServiceStatusAggregator.aggregate(ms, new ModelServiceObservation(
        deployment(1, 1), null, deployment(1, 1), null, null, null, Set.of(), Map.of(),
        PrecisePrefixStatus.configured("the picker reads each server's KV-event socket on port 5557")),
        NOW.plusSeconds(5));
    precise = Conditions.find(fixed.conditions(), "PrecisePrefixRouting");
    assertThat(precise.getStatus()).isEqualTo("True");
    assertThat(precise.getReason()).isEqualTo("ServersConfigured");
    ms.setStatus(fixed);
    ModelServiceStatus unused = ModelServiceStatusAggregator.aggregate(ms, new ModelServiceObservation(
        deployment(1, 1), null, deployment(1, 1), null, null, null, Set.of(), Map.of(), null), NOW.plusSeconds(9));
    assertThat(Conditions.find(unused.conditions(), "PrecisePrefixRouting")).isNull();
  }
}
