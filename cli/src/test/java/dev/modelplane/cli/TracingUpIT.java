package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.controlplane.ControlPlaneBinaries;
import dev.modelplane.testsupport.JaegerServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code modelplane up --tracing-endpoint} with Jaeger as the collector: requests sent through the router, each with
 * the client's own W3C {@code traceparent}, come back from Jaeger's query API as one trace per request that runs from
 * the router's request span through scheduling (the chosen endpoint recorded) and the upstream call into the model
 * server's {@code llm_request} span and its queue, prefill and decode children; the operator's reconciles are traced
 * too. When the browser tools are installed, one trace is also drawn and saved as a screenshot
 * ({@code cli/target/observability/trace.png}, the one the docs show).
 */
class TracingUpIT {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @TempDir
  static Path state;
  @TempDir
  static Path jaegerDir;
  static JaegerServer jaeger;

  @BeforeAll
  static void backends() throws Exception {
    if (ControlPlaneBinaries.find().isEmpty()) {
      if ("true".equals(System.getenv("CI"))) {
        throw new IllegalStateException("CI=true and no control-plane binaries: run hack/control-plane/build.sh");
      }
      Assumptions.abort("skipped: " + ControlPlaneBinaries.missingMessage());
    }
    jaeger = JaegerServer.startOrSkip(jaegerDir);
  }

  @AfterAll
  static void down() throws Exception {
    if (state != null && Files.exists(state.resolve(PlatformState.FILE))) {
      UpEndToEndIT.modelplane(List.of("down", "--state-dir", state.toString()), 120);
    }
    if (jaeger != null) {
      jaeger.close();
    }
  }

  /** A client's span context: the trace the request belongs to and the client span that is its parent. */
  record ClientSpan(String traceId, String spanId) {
    static ClientSpan random() {
      byte[] trace = new byte[16];
      byte[] span = new byte[8];
      RANDOM.nextBytes(trace);
      RANDOM.nextBytes(span);
      return new ClientSpan(HexFormat.of().formatHex(trace), HexFormat.of().formatHex(span));
    }

    String traceparent() {
      return "00-" + traceId + "-" + spanId + "-01";
    }
  }

  @Test
  void everyRequestIsOneTraceFromTheRouterIntoTheModelServer() throws Exception {
    List<String> up = new ArrayList<>(List.of("up", "--tracing-endpoint", jaeger.otlpHttpEndpoint().toString()));
    up.addAll(UpEndToEndIT.upArgs(state, "5m"));
    UpEndToEndIT.Run started = UpEndToEndIT.modelplane(up, 600);
    assertThat(started.exit()).as(started.output()).isZero();
    int gateway = PlatformState.read(state).orElseThrow().port();

    List<ClientSpan> sent = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      ClientSpan client = ClientSpan.random();
      HttpResponse<String> answer = chat(gateway, client, "trace me, request " + i + " of four", i % 2 == 1);
      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
      sent.add(client);
    }

    Map<String, JsonNode> traces = new java.util.HashMap<>();
    for (ClientSpan client : sent) {
      // The batch exporters send within a second or so; the simulator ends its span when the request finishes.
      await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
        JsonNode trace = trace(client.traceId());
        assertThat(names(trace)).as(jaeger.logTail()).contains("router.request", "router.schedule",
            "router.upstream", "llm_request", "queue", "prefill", "decode");
      });
      traces.put(client.traceId(), trace(client.traceId()));
    }
    for (ClientSpan client : sent) {
      checkTrace(client, traces.get(client.traceId()));
    }

    // One trace per request: among the router's traces, each request's trace id appears once.
    JsonNode routerTraces = json(jaeger.traces("modelplane-router", 200));
    List<String> ids = StreamSupport.stream(routerTraces.path("data").spliterator(), false)
        .map(t -> t.path("traceID").asText()).toList();
    for (ClientSpan client : sent) {
      assertThat(ids).as("traces of modelplane-router").containsOnlyOnce(client.traceId());
    }

    // The operator traced its reconciles of what up applied.
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
      JsonNode operator = json(jaeger.traces("modelplane-operator", 100));
      List<JsonNode> reconciles = spans(operator).stream()
          .filter(s -> s.path("operationName").asText().equals("operator.reconcile")).toList();
      assertThat(reconciles.stream().map(s -> tag(s, "k8s.resource.kind").orElse("")).collect(Collectors.toSet()))
          .contains("InferenceService", "Model");
      assertThat(reconciles).allSatisfy(s -> assertThat(tag(s, "modelplane.reconcile.outcome")).isPresent());
    });

    screenshot(traces.get(sent.get(1).traceId()));
  }

  /**
   * The trace of one request: the router's request span continues the client's span; scheduling, admission and the
   * upstream call are its children; the model server's {@code llm_request} continues the upstream call, on the pod
   * scheduling chose.
   */
  private static void checkTrace(ClientSpan client, JsonNode trace) {
    JsonNode request = only(trace, "router.request");
    assertThat(parent(request)).as("router.request's parent").contains(client.spanId());
    assertThat(service(trace, request)).isEqualTo("modelplane-router");
    for (String child : List.of("router.parse", "router.admission", "router.schedule", "router.upstream")) {
      assertThat(parent(only(trace, child))).as(child + "'s parent").contains(request.path("spanID").asText());
    }
    JsonNode schedule = only(trace, "router.schedule");
    JsonNode upstream = only(trace, "router.upstream");
    String endpoint = tag(schedule, "modelplane.endpoint").orElseThrow();
    assertThat(endpoint).startsWith("127.");
    assertThat(tag(upstream, "server.address").orElseThrow() + ":" + tag(upstream, "server.port").orElseThrow())
        .isEqualTo(endpoint);

    JsonNode llm = only(trace, "llm_request");
    assertThat(service(trace, llm)).isEqualTo("modelplane-simulator");
    assertThat(parent(llm)).as("llm_request's parent").contains(upstream.path("spanID").asText());
    // The router names a discovered pod's endpoint <pod>-rank-<n>, as GIE does.
    assertThat(tag(schedule, "modelplane.endpoint.name").orElseThrow())
        .startsWith(processTag(trace, llm, "k8s.pod.name").orElseThrow() + "-rank-");
    assertThat(tag(llm, "gen_ai.usage.prompt_tokens").map(Long::parseLong)).get().satisfies(n ->
        assertThat(n).isPositive());
    for (String phase : List.of("queue", "prefill", "decode")) {
      assertThat(parent(only(trace, phase))).as(phase + "'s parent").contains(llm.path("spanID").asText());
    }
  }

  private static HttpResponse<String> chat(int port, ClientSpan client, String prompt, boolean stream)
      throws IOException, InterruptedException {
    String body = "{\"model\":\"qwen2-5-0-5b-instruct\",\"max_tokens\":6,\"stream\":" + stream
        + ",\"messages\":[{\"role\":\"user\",\"content\":" + DevClusterCommand.JSON.valueToTree(prompt) + "}]}";
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/chat/completions"))
        .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
        .header(EndpointCheck.POOL_HEADER, "default/qwen-chat").header("traceparent", client.traceparent())
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode trace(String traceId) throws IOException {
    try {
      return json(jaeger.trace(traceId)).path("data").path(0);
    } catch (IOException e) {
      return DevClusterCommand.JSON.createObjectNode(); // 404 until the first span of the trace arrives
    }
  }

  private static JsonNode json(String text) throws IOException {
    return DevClusterCommand.JSON.readTree(text);
  }

  private static List<JsonNode> spans(JsonNode traces) {
    List<JsonNode> out = new ArrayList<>();
    traces.path("data").forEach(t -> t.path("spans").forEach(out::add));
    return out;
  }

  private static List<String> names(JsonNode trace) {
    List<String> out = new ArrayList<>();
    trace.path("spans").forEach(s -> out.add(s.path("operationName").asText()));
    return out;
  }

  private static JsonNode only(JsonNode trace, String name) {
    List<JsonNode> found = new ArrayList<>();
    trace.path("spans").forEach(s -> {
      if (s.path("operationName").asText().equals(name)) {
        found.add(s);
      }
    });
    assertThat(found).as("spans named " + name + " in trace " + trace.path("traceID").asText()).hasSize(1);
    return found.get(0);
  }

  private static Optional<String> parent(JsonNode span) {
    for (JsonNode ref : span.path("references")) {
      if (ref.path("refType").asText().equals("CHILD_OF")) {
        return Optional.of(ref.path("spanID").asText());
      }
    }
    return Optional.empty();
  }

  private static Optional<String> tag(JsonNode span, String key) {
    for (JsonNode t : span.path("tags")) {
      if (t.path("key").asText().equals(key)) {
        return Optional.of(t.path("value").asText());
      }
    }
    return Optional.empty();
  }

  private static String service(JsonNode trace, JsonNode span) {
    return trace.path("processes").path(span.path("processID").asText()).path("serviceName").asText();
  }

  private static Optional<String> processTag(JsonNode trace, JsonNode span, String key) {
    return tag(trace.path("processes").path(span.path("processID").asText()), key);
  }

  /** Draws {@code trace} with hack/browser/trace-view.mjs when the browser tools are installed; skipped otherwise. */
  private static void screenshot(JsonNode trace) throws Exception {
    Path root = OperatorFixtures.repoRoot();
    UpEndToEndIT.Run check = UpEndToEndIT.run(List.of("bash", root.resolve("hack/browser/install.sh").toString(),
        "--check"), 60);
    if (check.exit() != 0) {
      System.err.println("[modelplane] trace screenshot skipped: hack/browser/install.sh has not installed the "
          + "browser tools");
      return;
    }
    String playwright = check.output().strip().lines().reduce((a, b) -> b).orElseThrow();
    Path out = Files.createDirectories(root.resolve("cli/target/observability"));
    Path json = Files.writeString(out.resolve("trace.json"),
        DevClusterCommand.JSON.writeValueAsString(Map.of("data", List.of(trace))));
    UpEndToEndIT.Run drawn = UpEndToEndIT.run(List.of("node", root.resolve("hack/browser/trace-view.mjs").toString(),
        playwright, json.toString(), out.resolve("trace.png").toString()), 120);
    assertThat(drawn.exit()).as(drawn.output()).isZero();
    assertThat(drawn.output()).contains("\"spans\":" + trace.path("spans").size());
  }
}
