package dev.modelplane.operator.ome.isvc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.FailureReason;
import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.InferenceServiceStatus;
import dev.modelplane.api.ome.v1beta1.ModelState;
import dev.modelplane.api.ome.v1beta1.TransitionStatus;
import dev.modelplane.operator.common.Conditions;
import dev.modelplane.operator.prefixrouting.PrecisePrefixStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class OmeStatusAggregatorTest {
  private static final Instant NOW = Instant.parse("2026-11-24T00:00:00Z");
  private static final OmeStatusAggregator.Exposure OFF = new OmeStatusAggregator.Exposure(
      "http://llama.llm.svc.cluster.local", "http://llama.llm.svc.cluster.local", true, "IngressDisabled",
      "ingress is disabled; the service is reached inside the cluster");

  private static InferenceService isvc() {
    InferenceService isvc = new InferenceService();
    isvc.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("llama").withNamespace("llm")
        .withGeneration(3L).build());
    return isvc;
  }

  private static Pod pod(String name, boolean ready) {
    return new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewStatus().withPhase("Running")
        .addNewCondition().withType("Ready").withStatus(ready ? "True" : "False").endCondition().endStatus().build();
  }

  private static Pod crashing(String name) {
    return new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewStatus().withPhase("Running")
        .addNewContainerStatus().withName("ome-container").withNewState().withNewWaiting()
        .withReason("CrashLoopBackOff").endWaiting().endState().withNewLastState().withNewTerminated()
        .withExitCode(137).withMessage("CUDA out of memory").endTerminated().endLastState().endContainerStatus()
        .endStatus().build();
  }

  private static ComponentHealth health(String component, boolean ready, List<Pod> pods) {
    return new ComponentHealth(component, ready, ready ? "MinimumReplicasAvailable" : "MinimumReplicasUnavailable",
        ready ? "Deployment has minimum availability." : "0 of 1 replicas available", "1",
        "http://llama-" + component + ".llm.svc.cluster.local", null, pods, "ome-container");
  }

  @Test
  void aComponentShowsItsRestUrlAndAServerlessOneKnativesTrafficAddressAndRollouts() {
    var raw = OmeStatusAggregator.componentStatus(health("engine", true, List.of()));
    assertThat(raw.url()).isEqualTo("http://llama-engine.llm.svc.cluster.local");
    assertThat(raw.restURL()).isEqualTo(raw.url());
    assertThat(raw.traffic()).isNull();
    assertThat(OmeStatusAggregator.componentStatus(health("engine", false, List.of())).restURL()).isNull();
    var traffic = List.of(new dev.modelplane.api.ome.v1beta1.TrafficTarget("prev", "e-00001", null, false, 80L,
        "http://prev-llama-engine.llm.example.com"), new dev.modelplane.api.ome.v1beta1.TrafficTarget(null,
        "e-00002", null, true, 20L, null));
    var knative = new ComponentHealth.Knative("e-00002", "e-00001", null, traffic, "http://llama-engine.llm.example.com",
        new dev.modelplane.api.ome.v1beta1.Addressable(null, "http://llama-engine.llm.svc.cluster.local", null, null));
    var serverless = OmeStatusAggregator.componentStatus(new ComponentHealth("engine", true, "Ready", "ok", "e-00002",
        "http://llama-engine.llm.svc.cluster.local", null, List.of(), "ome-container", knative));
    assertThat(serverless.url()).isEqualTo("http://llama-engine.llm.example.com");
    assertThat(serverless.restURL()).isEqualTo(serverless.url());
    assertThat(serverless.address().url()).isEqualTo("http://llama-engine.llm.svc.cluster.local");
    assertThat(serverless.traffic()).isEqualTo(traffic);
    assertThat(serverless.latestReadyRevision()).isEqualTo("e-00002");
    assertThat(serverless.latestRolledoutRevision()).isEqualTo("e-00001");
    var notReady = OmeStatusAggregator.componentStatus(new ComponentHealth("engine", false, "NotReady", "no",
        "e-00002", null, null, List.of(), "ome-container", knative));
    assertThat(notReady.address()).isNull();
    assertThat(notReady.url()).isNull();
    assertThat(notReady.traffic()).isEqualTo(traffic);
  }

  @Test
  void readyNeedsEveryDeclaredComponentAndModelStatusCountsServingPodsOfAllOfThem() {
    InferenceServiceStatus status = OmeStatusAggregator.aggregate(isvc(), new OmeStatusAggregator.Served(
        "ClusterServingRuntime sglang-pd (named in spec.runtime)", List.of(
            health("engine", true, List.of(pod("e-1", true))),
            health("decoder", true, List.of(pod("d-1", true), pod("d-2", true))),
            health("router", false, List.of(pod("r-1", false)))), OFF), NOW);
    assertThat(Conditions.find(status.conditions(), "EngineReady").getStatus()).isEqualTo("True");
    assertThat(Conditions.find(status.conditions(), "RouterReady").getStatus()).isEqualTo("False");
    assertThat(Conditions.find(status.conditions(), "Ready").getStatus()).isEqualTo("False");
    assertThat(Conditions.find(status.conditions(), "Ready").getMessage())
        .isEqualTo("RouterReady: 0 of 1 replicas available");
    assertThat(status.modelStatus().transitionStatus()).isEqualTo(TransitionStatus.IN_PROGRESS);
    assertThat(status.modelStatus().modelCopies().totalCopies()).isEqualTo(3);
    assertThat(status.components()).containsOnlyKeys("engine", "decoder", "router");
    assertThat(status.components().get("router").url()).isNull();
    assertThat(status.observedGeneration()).isEqualTo(3L);
  }

  @Test
  void allReadyIsReadyWithUrlAndLoadedModel() {
    InferenceServiceStatus status = OmeStatusAggregator.aggregate(isvc(), new OmeStatusAggregator.Served("rt",
        List.of(health("engine", true, List.of(pod("e-1", true)))), OFF), NOW);
    assertThat(Conditions.isTrue(status.conditions(), "Ready")).isTrue();
    assertThat(Conditions.isTrue(status.conditions(), "IngressReady")).isTrue();
    assertThat(status.url()).isEqualTo("http://llama.llm.svc.cluster.local");
    assertThat(status.address().url()).isEqualTo("http://llama.llm.svc.cluster.local");
    assertThat(status.modelStatus().transitionStatus()).isEqualTo(TransitionStatus.UP_TO_DATE);
    assertThat(status.modelStatus().modelRevisionStates().activeModelState()).isEqualTo(ModelState.LOADED);
    assertThat(status.components().get("engine").url()).isEqualTo("http://llama-engine.llm.svc.cluster.local");
  }

  @Test
  void aCrashLoopingServerBlocksTheRolloutWithItsExitCodeWhicheverComponentItIsIn() {
    InferenceServiceStatus status = OmeStatusAggregator.aggregate(isvc(), new OmeStatusAggregator.Served("rt",
        List.of(health("engine", false, List.of(crashing("e-1"))), health("router", true, List.of(pod("r", true)))),
        OFF), NOW);
    assertThat(status.modelStatus().transitionStatus()).isEqualTo(TransitionStatus.BLOCKED_BY_FAILED_LOAD);
    assertThat(status.modelStatus().lastFailureInfo().reason()).isEqualTo(FailureReason.ModelLoadFailed);
    assertThat(status.modelStatus().lastFailureInfo().exitCode()).isEqualTo(137);
    assertThat(status.modelStatus().lastFailureInfo().location()).isEqualTo("e-1");
    assertThat(status.modelStatus().lastFailureInfo().message())
        .isEqualTo("engine: container ome-container is crash-looping: CUDA out of memory");
  }

  @Test
  void aServiceThatCannotBeServedSaysWhyInItsConditions() {
    String why = "no runtime found to support model llama with format safetensors in namespace llm. Checked 1 "
        + "runtimes (0 namespace-scoped, 1 cluster-scoped). Excluded runtimes: vllm (runtime is disabled)";
    InferenceServiceStatus status = OmeStatusAggregator.aggregate(isvc(), new OmeStatusAggregator.Blocked(
        OmeStatusAggregator.RUNTIME_SELECTED, "NoSupportingRuntime", why, FailureReason.NoSupportingRuntime), NOW);
    assertThat(Conditions.find(status.conditions(), "RuntimeSelected").getMessage()).isEqualTo(why);
    assertThat(Conditions.find(status.conditions(), "Ready").getReason()).isEqualTo("NoSupportingRuntime");
    assertThat(status.modelStatus().transitionStatus()).isEqualTo(TransitionStatus.INVALID_SPEC);
    assertThat(status.modelStatus().lastFailureInfo().reason()).isEqualTo(FailureReason.NoSupportingRuntime);
  }

  @Test
  void conditionsOfARemovedComponentGoAway() {
    InferenceService isvc = isvc();
    isvc.setStatus(OmeStatusAggregator.aggregate(isvc, new OmeStatusAggregator.Served("rt", List.of(
        health("engine", true, List.of()), health("router", true, List.of())), OFF), NOW));
    InferenceServiceStatus status = OmeStatusAggregator.aggregate(isvc, new OmeStatusAggregator.Served("rt",
        List.of(health("engine", true, List.of())), OFF), NOW);
    assertThat(Conditions.find(status.conditions(), "RouterReady")).isNull();
    assertThat(status.components()).containsOnlyKeys("engine");
  }

  @Test
  void precisePrefixRoutingHasItsOwnConditionOutsideReady() {
    InferenceService isvc = isvc();
    InferenceServiceStatus conflicting = OmeStatusAggregator.aggregate(isvc, new OmeStatusAggregator.Served("rt",
        List.of(health("engine", true, List.of(pod("e-1", true)))), OFF,
        PrecisePrefixStatus.conflicting(List.of("spec.engine: --block-size 32 differs"))), NOW);
    Condition precise = Conditions.find(conflicting.conditions(), "PrecisePrefixRouting");
    assertThat(precise.getStatus()).isEqualTo("False");
    assertThat(precise.getReason()).isEqualTo("ConflictingSettings");
    assertThat(Conditions.find(conflicting.conditions(), "Ready").getStatus()).isEqualTo("True");
    assertThat(PrecisePrefixStatus.newProblem(null, conflicting.conditions())).isEqualTo(precise);
    assertThat(PrecisePrefixStatus.newProblem(conflicting.conditions(), conflicting.conditions())).isNull();
    isvc.setStatus(conflicting);
    InferenceServiceStatus gone = OmeStatusAggregator.aggregate(isvc, new OmeStatusAggregator.Served("rt",
        List.of(health("engine", true, List.of(pod("e-1", true)))), OFF), NOW);
    assertThat(Conditions.find(gone.conditions(), "PrecisePrefixRouting")).isNull();
  }
}
