package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.controlplane.ControlPlaneBinaries;
import dev.modelplane.testsupport.PeerBinary;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code modelplane up --monitoring} end to end: Prometheus discovers the router, the operator and the live
 * model-server pods; after real load (streamed and whole answers, shared prefixes, a saturated pool whose queued
 * requests are abandoned, bad requests, a pool without endpoints, an InferenceService waiting for GPUs) every query
 * of every dashboard panel and the signal side of every alert (see {@link MonitoringQueries}) returns data from that
 * Prometheus; a second {@code up} reuses it; {@code down} stops it.
 *
 * <p>Panels are asked the way Grafana asks a time-series panel, {@code /api/v1/query_range} over the load's window;
 * alerts the way the rule evaluator does, {@code /api/v1/query} now.
 */
class MonitoringUpIT {
  /**
   * Alerts whose series {@code up} cannot produce, with why; their query must still be accepted. The OME model agent
   * runs inside the dev-cluster process on a laptop, with no metrics port; in a cluster it is a DaemonSet scraped
   * like any pod.
   */
  private static final Map<String, String> NOT_ON_A_LAPTOP = Map.of("ModelplaneModelDownloadFailed",
      "modelplane_model_agent_failures_total comes from the model agent DaemonSet, which up does not run as pods");
  private static final String MODEL = "qwen2-5-0-5b-instruct";

  @TempDir
  static Path state;
  static Path prometheusBin;
  static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @BeforeAll
  static void binaries() throws Exception {
    if (ControlPlaneBinaries.find().isEmpty()) {
      if ("true".equals(System.getenv("CI"))) {
        throw new IllegalStateException("CI=true and no control-plane binaries: run hack/control-plane/build.sh");
      }
      Assumptions.abort("skipped: " + ControlPlaneBinaries.missingMessage());
    }
    prometheusBin = PeerBinary.require("prometheus", Monitoring.BIN_VARIABLE);
  }

  @AfterAll
  static void down() throws Exception {
    if (state != null && Files.exists(state.resolve(PlatformState.FILE))) {
      run(List.of("down", "--state-dir", state.toString()), 120);
    }
  }

  @Test
  void everyPanelAndAlertQueryAnswersAfterLoadAndDownStopsPrometheus() throws Exception {
    Path manifest = Files.writeString(state.resolve("manifest.yaml"), MANIFEST);
    List<String> up = new ArrayList<>(List.of("up", "-f", manifest.toString(), "--monitoring", "--monitoring-port",
        "0"));
    up.addAll(UpEndToEndIT.upArgs(state, "5m"));
    up.addAll(List.of("--gpu-nodes", "1")); // eight GPUs: GPU_HUNGRY's second replica waits
    UpEndToEndIT.Run started = run(up, 600);
    assertThat(started.exit()).as(started.output()).isZero();
    Monitoring.State prometheus = Monitoring.read(state).orElseThrow();
    assertThat(started.output()).contains("  prometheus " + prometheus.url() + " (pid " + prometheus.pid(),
        "metrics:  " + prometheus.url());
    int gateway = PlatformState.read(state).orElseThrow().port();
    Instant loadStart = Instant.now();
    try (KubernetesClient client = new KubernetesClientBuilder()
        .withConfig(Config.fromKubeconfig(Files.readString(state.resolve("kubeconfig")))).build()) {
      client.resource(Serialization.unmarshal(EMPTY_POOL, GenericKubernetesResource.class)).create();
      client.resource(Serialization.unmarshal(GPU_HUNGRY, GenericKubernetesResource.class)).create();
      new Load(gateway, PlatformState.read(state).orElseThrow().metricsPort()).run();
    }
    Instant loadEnd = Instant.now();
    awaitScrapes(prometheus.url(), loadEnd);

    List<String> failures = new ArrayList<>();
    Path root = OperatorFixtures.repoRoot();
    List<MonitoringQueries.Query> panels = MonitoringQueries.panels(root.resolve("deploy/monitoring/dashboards"));
    for (MonitoringQueries.Query q : panels) {
      JsonNode answer = get(prometheus.url() + "/api/v1/query_range?query=" + encode(q.expr()) + "&start="
          + loadStart.minusSeconds(60).getEpochSecond() + "&end=" + Instant.now().getEpochSecond() + "&step=5");
      check(failures, q.where(), q.expr(), answer);
    }
    Map<String, String> alerts = MonitoringQueries.alertSignals(root.resolve("deploy/monitoring/prometheusrule.yaml"));
    for (Map.Entry<String, String> alert : alerts.entrySet()) {
      JsonNode answer = get(prometheus.url() + "/api/v1/query?query=" + encode(alert.getValue()));
      if (NOT_ON_A_LAPTOP.containsKey(alert.getKey())) {
        assertThat(answer.path("status").asText()).as(alert.getKey() + ": " + answer).isEqualTo("success");
      } else {
        check(failures, "alert " + alert.getKey() + " (signal side)", alert.getValue(), answer);
      }
    }
    assertThat(failures).as("queries that failed or returned nothing").isEmpty();
    assertThat(panels).hasSizeGreaterThan(30);

    // up loaded the same alerts into its Prometheus.
    JsonNode rules = get(prometheus.url() + "/api/v1/rules?type=alert");
    assertThat(rules.at("/data/groups").findValuesAsText("name")).containsAll(alerts.keySet());

    // A second up reuses the running Prometheus, rewriting and reloading its configuration.
    List<String> again = new ArrayList<>(List.of("up", "--no-apply", "--monitoring", "--monitoring-port", "0"));
    again.addAll(UpEndToEndIT.upArgs(state, "5m"));
    UpEndToEndIT.Run reused = run(again, 300);
    assertThat(reused.exit()).as(reused.output()).isZero();
    assertThat(reused.output()).contains("  prometheus " + prometheus.url() + " (pid " + prometheus.pid()
        + ") already runs; configuration reloaded", "metrics:  " + prometheus.url());

    UpEndToEndIT.Run down = run(List.of("down", "--state-dir", state.toString()), 120);
    assertThat(down.output()).contains("modelplane prometheus stopped");
    assertThat(PlatformState.alive(prometheus.pid())).isFalse();
    assertThat(state.resolve(Monitoring.FILE)).doesNotExist();
  }

  private static void check(List<String> failures, String where, String expr, JsonNode answer) {
    if (!"success".equals(answer.path("status").asText())) {
      failures.add(where + ": " + answer.path("error").asText(answer.toString()) + "\n    " + expr);
    } else if (answer.at("/data/result").isEmpty()) {
      failures.add(where + ": no data\n    " + expr);
    }
  }

  /**
   * Waits until every target is up and was scraped twice after the load ended (a rate needs two samples of a
   * series, and the last counts must be in).
   */
  private static void awaitScrapes(String prometheus, Instant after) throws Exception {
    Instant deadline = Instant.now().plusSeconds(120);
    String why = "";
    while (Instant.now().isBefore(deadline)) {
      JsonNode targets = get(prometheus + "/api/v1/targets?state=active").at("/data/activeTargets");
      List<String> jobs = targets.findValuesAsText("scrapePool");
      why = targets.toString();
      boolean fresh = !targets.isEmpty();
      for (JsonNode t : targets) {
        fresh &= "up".equals(t.path("health").asText())
            && Instant.parse(t.path("lastScrape").asText()).isAfter(after.plusSeconds(11))
            && t.at("/labels/instance").asText().startsWith("127.");
      }
      if (fresh && jobs.containsAll(List.of("modelplane-router", "modelplane-operator", "model-servers"))) {
        return;
      }
      Thread.sleep(1000);
    }
    throw new AssertionError("Prometheus targets not all up and fresh after 120 s: " + why);
  }

  /** The requests that give every panel and alert its series. */
  private record Load(int gateway, int metrics) {
    void run() throws Exception {
      ExecutorService pool = Executors.newFixedThreadPool(24);
      try {
        // Errors first, so that several scrapes see their counters: a malformed request, one the model server
        // refuses, and requests for a pool with no endpoint.
        assertThat(post("default/chat", "{\"model\":\"" + MODEL + "\",\"messages\":\"not a list\"}", 30))
            .isEqualTo(400);
        assertThat(chat("default/chat", "too long an answer", 100_000_000, false, 30)).isEqualTo(400);
        for (int i = 0; i < 3; i++) {
          assertThat(chat("default/empty", "nobody serves this", 8, false, 30)).isEqualTo(503);
        }
        List<Future<Integer>> calls = new ArrayList<>();
        String shared = "You are a careful assistant for a large retailer; answer briefly. ".repeat(30);
        for (int i = 0; i < 40; i++) {
          String prompt = (i % 2 == 0 ? shared : "distinct words for request " + i + " ".repeat(i % 5))
              + " Question " + i + ": how do flows " + i + " differ?";
          boolean stream = i % 3 == 0;
          int maxTokens = 8 + (i * 7) % 48;
          calls.add(pool.submit(() -> chat("default/chat", prompt, maxTokens, stream, 60)));
        }
        for (Future<Integer> f : calls) {
          assertThat(f.get(120, TimeUnit.SECONDS)).isEqualTo(200);
        }
        // Saturate the pool (4 slots) so flow control queues, then abandon queued requests: they are shed.
        List<Future<Integer>> saturating = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
          int n = i;
          saturating.add(pool.submit(() -> chat("default/chat", "Tell a long story " + n, 200, true, 180)));
        }
        Instant deadline = Instant.now().plusSeconds(60);
        while (!routerMetrics().contains("inference_extension_flow_control_queue_size{")
            && Instant.now().isBefore(deadline)) {
          Thread.sleep(200);
        }
        for (int i = 0; i < 3; i++) {
          chat("default/chat", "abandoned " + i, 8, false, 1); // behind the queue: evicted when the client leaves
        }
        for (Future<Integer> f : saturating) {
          f.get(180, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
    }

    private int chat(String poolName, String prompt, int maxTokens, boolean stream, int timeoutSeconds)
        throws Exception {
      String body = "{\"model\":\"" + MODEL + "\",\"max_tokens\":" + maxTokens + ",\"stream\":" + stream
          + ",\"ignore_eos\":true,\"messages\":[{\"role\":\"user\",\"content\":"
          + DevClusterCommand.JSON.valueToTree(prompt) + "}]}";
      return post(poolName, body, timeoutSeconds);
    }

    private String routerMetrics() throws Exception {
      return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metrics + "/metrics"))
          .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The status, or -1 when the client gave up first. */
    private int post(String poolName, String body, int timeoutSeconds) throws Exception {
      try {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway + "/v1/chat/completions"))
            .timeout(Duration.ofSeconds(timeoutSeconds)).header("Content-Type", "application/json")
            .header(EndpointCheck.POOL_HEADER, poolName).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
            HttpResponse.BodyHandlers.ofString()).statusCode();
      } catch (java.net.http.HttpTimeoutException e) {
        return -1;
      }
    }
  }

  private static JsonNode get(String url) throws Exception {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
        .build(), HttpResponse.BodyHandlers.ofString());
    return DevClusterCommand.JSON.readTree(r.body());
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /** {@code modelplane ARGS} with the Prometheus binary the test found. */
  private static UpEndToEndIT.Run run(List<String> args, long timeoutSeconds) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "-Dmodelplane.repo.root=" + OperatorFixtures.repoRoot(), "-Dmodelplane.prometheus.bin="
        + prometheusBin, "-jar", OperatorFixtures.jar().toString()));
    command.addAll(args);
    return UpEndToEndIT.run(command, timeoutSeconds);
  }

  private static final String MANIFEST = """
      apiVersion: inference.llmkube.dev/v1alpha1
      kind: Model
      metadata: {name: qwen2-5-0-5b-instruct, namespace: default}
      spec:
        source: https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf
        format: gguf
      ---
      apiVersion: inference.llmkube.dev/v1alpha1
      kind: InferenceService
      metadata: {name: chat, namespace: default}
      spec:
        modelRef: qwen2-5-0-5b-instruct
        runtime: llamacpp
        replicas: 1
        contextSize: 16384
        parallelSlots: 4
        resources: {cpu: "1", memory: 1Gi}
      ---
      apiVersion: inference.networking.k8s.io/v1
      kind: InferencePool
      metadata: {name: chat, namespace: default}
      spec:
        selector: {matchLabels: {app: chat}}
        targetPorts: [{number: 8080}]
        endpointPickerRef: {name: modelplane-router, port: {number: 9002}}
      """;

  private static final String EMPTY_POOL = """
      apiVersion: inference.networking.k8s.io/v1
      kind: InferencePool
      metadata: {name: empty, namespace: default}
      spec:
        selector: {matchLabels: {app: nothing-has-this-label}}
        targetPorts: [{number: 8080}]
        endpointPickerRef: {name: modelplane-router, port: {number: 9002}}
      """;

  /** Two replicas of eight GPUs on a cluster of eight: one waits in the GPU queue. */
  private static final String GPU_HUNGRY = """
      apiVersion: inference.llmkube.dev/v1alpha1
      kind: InferenceService
      metadata: {name: gpu-hungry, namespace: default}
      spec:
        modelRef: qwen2-5-0-5b-instruct
        runtime: llamacpp
        replicas: 2
        resources: {cpu: "1", memory: 1Gi, gpu: 8}
      """;
}
