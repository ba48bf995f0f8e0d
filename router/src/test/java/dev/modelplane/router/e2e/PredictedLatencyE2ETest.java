package dev.modelplane.router.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.router.Router;
import dev.modelplane.router.RouterOptions;
import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.gateway.GatewayOptions;
import dev.modelplane.router.predict.PredictedLatencyScorer;
import dev.modelplane.simulator.Simulator;
import dev.modelplane.simulator.SimulatorConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The predicted-latency profile end to end on loopback: real simulators behind the gateway, streamed requests from
 * the JDK's HTTP client. One simulator is replaced, on the same port, by one ten times slower to answer; the router
 * learns that from the responses it relays and stops sending it requests — and a restarted router learns it again.
 */
class PredictedLatencyE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SERVED = "x-gateway-destination-endpoint-served";
  private static final String CONFIG = """
      apiVersion: inference.networking.x-k8s.io/v1alpha1
      kind: EndpointPickerConfig
      plugins:
      - type: predicted-latency-scorer
      - type: max-score-picker
      schedulingProfiles:
      - name: default
        plugins:
        - pluginRef: predicted-latency-scorer
        - pluginRef: max-score-picker
      """;
  private final List<Simulator> sims = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();
  private Router router;

  @AfterEach
  void tearDown() {
    if (router != null) {
      router.close();
    }
    sims.forEach(Simulator::close);
    http.close();
  }

  private static Simulator sim(int port, long ttftMs, long seed) {
    return Simulator.start(SimulatorConfig.of("m").host("127.0.0.1").port(port).seed(seed)
        .latencyCalculator("constant").timeToFirstToken(Duration.ofMillis(ttftMs))
        .interTokenLatency(Duration.ofMillis(1)));
  }

  private String startRouter() throws Exception {
    GatewayOptions gw = GatewayOptions.defaults().withPort(0).withEventLoops(2).withMaxBodyBytes(1 << 20)
        .withAccessLog(false);
    String endpoints = String.join(",", sims.stream().map(s -> "127.0.0.1:" + s.port()).toList());
    router = new Router(new RouterOptions("127.0.0.1", gw, -1, -1, -1, endpoints, List.of(), null, CONFIG,
        MetricsScraper.Settings.DEFAULT, Duration.ofSeconds(2), null, false, false)).start();
    return "http://127.0.0.1:" + router.gatewayPort() + "/v1";
  }

  private HttpResponse<String> stream(String base, int i, Map<String, String> headers) throws Exception {
    String body = JSON.writeValueAsString(Map.of("model", "m", "prompt", "question number " + i, "max_tokens", 4,
        "stream", true, "ignore_eos", true));
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/completions")).timeout(Duration.ofSeconds(30))
        .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(b::header);
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Sends {@code n} streamed requests one after the other; counts where the last {@code counted} went. */
  private Map<String, Integer> send(String base, int n, int counted) throws Exception {
    Map<String, Integer> served = new HashMap<>();
    for (int i = 0; i < n; i++) {
      HttpResponse<String> r = stream(base, i, Map.of());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      assertThat(r.body()).contains("data: [DONE]");
      if (i >= n - counted) {
        served.merge(r.headers().firstValue(SERVED).orElseThrow(), 1, Integer::sum);
      }
    }
    return served;
  }

  @Test
  void routesAwayFromASimulatorThatGotSlowAndRelearnsAfterARestart() throws Exception {
    for (int i = 0; i < 3; i++) {
      sims.add(sim(0, 15, 40 + i));
    }
    String base = startRouter();
    Map<String, Integer> before = send(base, 30, 30);
    // One request at a time leaves every simulator idle, so any is as good: slow down the one the router prefers.
    String slow = before.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    int index = sims.stream().map(s -> "127.0.0.1:" + s.port()).toList().indexOf(slow);
    int port = sims.get(index).port();
    sims.get(index).close();
    sims.set(index, sim(port, 150, 99));
    // It takes a response or two to notice; after that the slow simulator gets nothing.
    Map<String, Integer> after = send(base, 60, 60);
    assertThat(after.getOrDefault(slow, 0)).as("of 60 requests after " + slow + " became ten times slower: " + after)
        .isLessThanOrEqualTo(2);
    router.close();
    router = null;
    base = startRouter();
    // A restarted router knows nothing: it tries the slow simulator when it first explores it, then avoids it.
    Map<String, Integer> relearned = send(base, 60, 60);
    assertThat(relearned.getOrDefault(slow, 0)).as("of the first 60 requests of a restarted router: " + relearned)
        .isLessThanOrEqualTo(2);
    assertThat(router.setup().plugins().get(PredictedLatencyScorer.TYPE)).isInstanceOfSatisfying(
        PredictedLatencyScorer.class, p -> assertThat(p.predictor().observations()).isEqualTo(60));
    assertThat(before).isNotEmpty();
  }

  @Test
  void aSheddableRequestWhoseSloNoEndpointCanMeetIs429AndOthersAreServed() throws Exception {
    for (int i = 0; i < 2; i++) {
      sims.add(sim(0, 40, 60 + i));
    }
    String base = startRouter();
    router.pools().pools().forEach(p -> {
      p.putObjective("batch", -1);
      p.putObjective("chat", 100);
    });
    send(base, 20, 0);
    Map<String, String> tight = Map.of(PredictedLatencyScorer.TTFT_SLO_HEADER, "5");
    HttpResponse<String> shed = stream(base, 1, Map.of("x-gateway-inference-objective", "batch",
        PredictedLatencyScorer.TTFT_SLO_HEADER, "5"));
    assertThat(shed.statusCode()).as(shed.body()).isEqualTo(429);
    assertThat(JSON.readTree(shed.body()).path("error").path("type").asText()).isEqualTo("rate_limit_exceeded");
    HttpResponse<String> critical = stream(base, 2, Map.of("x-gateway-inference-objective", "chat",
        PredictedLatencyScorer.TTFT_SLO_HEADER, "5"));
    assertThat(critical.statusCode()).as("not sheddable: best effort").isEqualTo(200);
    HttpResponse<String> loose = stream(base, 3, Map.of("x-gateway-inference-objective", "batch",
        PredictedLatencyScorer.TTFT_SLO_HEADER, "5000"));
    assertThat(loose.statusCode()).as("an SLO that can be met").isEqualTo(200);
    assertThat(tight).isNotEmpty();
  }
}
