package dev.modelplane.operator.llmkube.isvc;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.operator.TestObjects;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** {@code rolloutPolicy.waitForIdle}: the idle checks per runtime and when a template change may go out. */
class RolloutGateTest {
  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
  private static final String MODEL = "source: https://example.com/m.gguf\n";

  private static Deployment deployment(String isvcSpec) {
    return IsvcDeploymentBuilder.build(Plans.plan(isvcSpec, MODEL), null);
  }

  private static Pod pod(String name, String ip, boolean ready) {
    return new PodBuilder().withNewMetadata().withName(name).endMetadata()
        .withNewStatus().withPodIP(ip).addNewCondition().withType("Ready").withStatus(ready ? "True" : "False")
        .endCondition().endStatus().build();
  }

  private static RolloutGate.Decision decide(String isvcSpec, String liveSpec, List<Pod> pods, Instant since,
      Map<String, IdleProbe.State> states, List<String> asked) {
    InferenceService isvc = TestObjects.isvc(isvcSpec);
    return RolloutGate.decide(isvc, isvc.getSpec().runtime() == null ? "llamacpp"
        : Plans.plan(isvcSpec, MODEL).renderer().runtimeName(), deployment(isvcSpec),
        liveSpec == null ? null : deployment(liveSpec), pods, 8080, since, NOW, t -> {
          asked.add(t.pod() + "@" + t.ip() + ":" + t.port() + t.check().path());
          return states.getOrDefault(t.pod(), IdleProbe.State.IDLE);
        });
  }

  private static final String WAIT = "modelRef: m\nrolloutPolicy: {waitForIdle: true, idleTimeoutSeconds: 60}\n";

  @Test
  void aTemplateChangeWaitsWhileAServingReplicaIsBusy() {
    List<String> asked = new ArrayList<>();
    RolloutGate.Decision d = decide(WAIT + "extraArgs: [--new]", WAIT,
        List.of(pod("a", "127.1.0.1", true), pod("b", "127.1.0.2", true), pod("starting", "127.1.0.3", false)), null,
        Map.of("a", IdleProbe.State.BUSY), asked);
    assertThat(asked).containsExactly("a@127.1.0.1:8080/slots", "b@127.1.0.2:8080/slots");
    assertThat(d.defer()).isTrue();
    assertThat(d.reason()).isEqualTo("WaitingForIdle");
    assertThat(d.message()).isEqualTo("The new pod template waits until 1 of 2 replica(s) are idle (a); at most 60s "
        + "more");
    assertThat(d.recheck()).isEqualTo(Duration.ofSeconds(5));

    RolloutGate.Decision later = decide(WAIT + "extraArgs: [--new]", WAIT, List.of(pod("a", "127.1.0.1", true)),
        NOW.minusSeconds(58), Map.of("a", IdleProbe.State.UNREACHABLE), new ArrayList<>());
    assertThat(later.defer()).isTrue();
    assertThat(later.message()).contains("(a (no answer)); at most 2s more");
    assertThat(later.recheck()).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void itGoesOutWhenIdleAfterTheTimeoutWhenForcedOrWhenNothingChanged() {
    String changed = WAIT + "extraArgs: [--new]";
    List<Pod> pods = List.of(pod("a", "127.1.0.1", true));
    assertThat(decide(changed, WAIT, pods, NOW.minusSeconds(30), Map.of(), new ArrayList<>()))
        .extracting(RolloutGate.Decision::defer, RolloutGate.Decision::reason).containsExactly(false, "Idle");
    RolloutGate.Decision timeout = decide(changed, WAIT, pods, NOW.minusSeconds(60), Map.of("a",
        IdleProbe.State.BUSY), new ArrayList<>());
    assertThat(timeout.defer()).isFalse();
    assertThat(timeout.reason()).isEqualTo("IdleTimeout");
    assertThat(timeout.message()).isEqualTo("1 of 1 replica(s) were still busy after 60s (a): rolled out anyway");
    List<String> asked = new ArrayList<>();
    assertThat(decide(WAIT, WAIT, pods, null, Map.of("a", IdleProbe.State.BUSY), asked).reason())
        .isEqualTo("UpToDate");
    assertThat(asked).as("nothing pending, nobody asked").isEmpty();
    String forced = "modelRef: m\nrolloutPolicy: {waitForIdle: true, force: true}\n";
    assertThat(decide(forced + "extraArgs: [--x]", forced, pods, null, Map.of("a", IdleProbe.State.BUSY), asked)
        .reason()).isEqualTo("Forced");
    assertThat(decide(changed, null, pods, null, Map.of(), asked).reason()).as("first creation")
        .isEqualTo("UpToDate");
    assertThat(decide("modelRef: m", "modelRef: m\nextraArgs: [--x]", pods, null, Map.of(), asked)).isNull();
  }

  @Test
  void theDefaultTimeoutIsFiveMinutesAndZeroMeansTheDefault() {
    String zero = "modelRef: m\nrolloutPolicy: {waitForIdle: true, idleTimeoutSeconds: 0}\n";
    RolloutGate.Decision d = decide(zero + "extraArgs: [--new]", zero, List.of(pod("a", "127.1.0.1", true)),
        NOW.minusSeconds(100), Map.of("a", IdleProbe.State.BUSY), new ArrayList<>());
    assertThat(d.defer()).isTrue();
    assertThat(d.message()).endsWith("at most 200s more");
  }

  @Test
  void runtimesWithoutAnIdleCheckRollOutAtOnce() {
    String tei = "modelRef: m\nruntime: personaplex\nrolloutPolicy: {waitForIdle: true}\n";
    RolloutGate.Decision d = decide(tei + "nodeSelector: {pool: b}", tei, List.of(pod("a", "127.1.0.1", true)), null,
        Map.of("a", IdleProbe.State.BUSY), new ArrayList<>());
    assertThat(d.defer()).isFalse();
    assertThat(d.reason()).isEqualTo("IdleCheckUnsupported");
    assertThat(IdleProbe.checkFor("generic", Map.of())).isNull();
    assertThat(IdleProbe.checkFor("generic", Map.of(IdleProbe.IDLE_ENDPOINT, "idle")).path()).isEqualTo("/idle");
    assertThat(IdleProbe.checkFor("vllm", null).path()).isEqualTo("/metrics");
  }

  @Test
  void theTemplateHashIsOnTheDeploymentOnlyWhenWaitingForIdle() {
    assertThat(deployment(WAIT).getMetadata().getAnnotations()).containsKey(RolloutGate.TEMPLATE_HASH);
    assertThat(deployment(WAIT).getMetadata().getAnnotations().get(RolloutGate.TEMPLATE_HASH))
        .isEqualTo(deployment(WAIT).getMetadata().getAnnotations().get(RolloutGate.TEMPLATE_HASH))
        .isNotEqualTo(deployment(WAIT + "extraArgs: [--new]").getMetadata().getAnnotations()
            .get(RolloutGate.TEMPLATE_HASH));
    assertThat(deployment("modelRef: m").getMetadata().getAnnotations()).isNullOrEmpty();
  }

  @Test
  void llamaCppSlotsAndPrometheusGaugesSayWhetherAServerIsBusy() {
    assertThat(IdleProbe.slotsBusy("[{\"id\":0,\"is_processing\":false},{\"id\":1,\"is_processing\":false}]"))
        .isFalse();
    assertThat(IdleProbe.slotsBusy("[{\"id\":0,\"is_processing\":false},{\"id\":1,\"is_processing\":true}]"))
        .isTrue();
    assertThat(IdleProbe.slotsBusy("[{\"id\":0,\"state\":1}]")).as("older servers").isTrue();
    assertThat(IdleProbe.slotsBusy("{\"error\":\"slots disabled\"}")).isTrue();
    String vllm = """
        # HELP vllm:num_requests_running Number of requests in model execution batches.
        # TYPE vllm:num_requests_running gauge
        vllm:num_requests_running{model_name="a"} 0.0
        vllm:num_requests_running{model_name="b"} %s
        vllm:num_requests_waiting{model_name="a"} 7.0
        """;
    assertThat(IdleProbe.gaugeAboveZero(vllm.formatted("0.0"), "vllm:num_requests_running")).isFalse();
    assertThat(IdleProbe.gaugeAboveZero(vllm.formatted("2.0"), "vllm:num_requests_running")).isTrue();
    assertThat(IdleProbe.gaugeAboveZero("tgi_batch_current_size 0\n", "tgi_batch_current_size")).isFalse();
    assertThat(IdleProbe.gaugeAboveZero("tgi_batch_current_size 4\n", "tgi_batch_current_size")).isTrue();
    assertThat(IdleProbe.gaugeAboveZero("other 0\n", "sglang:num_running_reqs")).as("gauge missing").isTrue();
  }

  @Test
  void aQuotedLabelValueWithABraceOrACommaDoesNotHideTheGaugeValue() {
    String vllm = """
        vllm:num_requests_running{model_name="team}a,b",engine="0"} %s
        vllm:num_requests_running{model_name="{x}, y"} 0.0
        """;
    assertThat(IdleProbe.gaugeAboveZero(vllm.formatted("0.0"), "vllm:num_requests_running")).isFalse();
    assertThat(IdleProbe.gaugeAboveZero(vllm.formatted("3.0"), "vllm:num_requests_running")).isTrue();
  }

  @Test
  void aLineOfTheGaugeThatDoesNotParseLeavesTheServerBusy() {
    String vllm = """
        vllm:num_requests_running{model_name="a"} 0.0
        vllm:num_requests_running{model_name="b"} lots
        """;
    assertThat(IdleProbe.gaugeAboveZero(vllm, "vllm:num_requests_running")).isTrue();
    assertThat(IdleProbe.gaugeAboveZero("vllm:num_requests_running{model_name=\"a} 0.0\n",
        "vllm:num_requests_running")).as("unterminated label value").isTrue();
  }

  @Test
  void theProbeAsksTheServerOverHttp() throws Exception {
    AtomicReference<String> slots = new AtomicReference<>("[{\"id\":0,\"is_processing\":true}]");
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/slots", exchange -> {
      try (exchange) {
        byte[] body = slots.get().getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
      }
    });
    server.createContext("/idle", exchange -> {
      try (exchange) {
        exchange.sendResponseHeaders(503, -1);
      }
    });
    server.start();
    try {
      IdleProbe probe = new IdleProbe(Duration.ofSeconds(2));
      int port = server.getAddress().getPort();
      IdleProbe.Check llama = IdleProbe.checkFor("llamacpp", Map.of());
      assertThat(probe.probe("127.0.0.1", port, llama)).isEqualTo(IdleProbe.State.BUSY);
      slots.set("[{\"id\":0,\"is_processing\":false}]");
      assertThat(probe.probe("127.0.0.1", port, llama)).isEqualTo(IdleProbe.State.IDLE);
      assertThat(probe.probe("127.0.0.1", port, IdleProbe.checkFor("generic", Map.of(IdleProbe.IDLE_ENDPOINT,
          "/idle")))).as("generic: not 200 is busy").isEqualTo(IdleProbe.State.BUSY);
      assertThat(probe.probe("127.0.0.1", port, IdleProbe.checkFor("vllm", Map.of())))
          .as("404 from /metrics").isEqualTo(IdleProbe.State.UNREACHABLE);
    } finally {
      server.stop(0);
    }
    assertThat(new IdleProbe(Duration.ofMillis(500)).probe("127.0.0.1", server.getAddress().getPort(),
        IdleProbe.checkFor("llamacpp", Map.of()))).isEqualTo(IdleProbe.State.UNREACHABLE);
  }
}
