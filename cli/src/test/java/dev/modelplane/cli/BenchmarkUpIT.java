package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.api.ome.v1beta1.BenchmarkJob;
import dev.modelplane.api.ome.v1beta1.BenchmarkJobStatus;
import dev.modelplane.api.ome.v1beta1.BenchmarkResult;
import dev.modelplane.api.ome.v1beta1.BenchmarkState;
import dev.modelplane.controlplane.ControlPlaneBinaries;
import dev.modelplane.testsupport.FreePorts;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OME BenchmarkJobs on the local platform, end to end: {@code modelplane up} serves the quickstart, the
 * {@code benchmarkjob-local.yaml} sample runs the real genai-bench (from PyPI) against the quickstart's pool through
 * the router, the operator reads genai-bench's results into the status, and the figures agree with the router's own
 * metrics; {@code modelplane bench report} prints them and draws the plots. The quickstart's LLMKube service is
 * benchmarked at its Service URL too, an OME service with its model's directory as the tokenizer, and a benchmark
 * of an unreachable endpoint fails with genai-bench's own message.
 */
class BenchmarkUpIT {
  @TempDir
  static Path state;
  static int port;
  static int metricsPort;
  static List<String> upArgs;
  static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @BeforeAll
  static void platform() throws Exception {
    if (ControlPlaneBinaries.find().isEmpty()) {
      if ("true".equals(System.getenv("CI"))) {
        throw new IllegalStateException("CI=true and no control-plane binaries: run hack/control-plane/build.sh");
      }
      Assumptions.abort("skipped: " + ControlPlaneBinaries.missingMessage());
    }
    upArgs = UpEndToEndIT.upArgs(state, "5m");
    UpEndToEndIT.Run up = UpEndToEndIT.modelplane(concat(List.of("up"), upArgs), 600);
    assertThat(up.exit()).as(up.output()).isZero();
    PlatformState platform = PlatformState.read(state).orElseThrow();
    port = platform.port();
    metricsPort = platform.metricsPort();
  }

  @AfterAll
  static void down() throws Exception {
    if (state != null && Files.exists(state)) {
      UpEndToEndIT.modelplane(List.of("down", "--state-dir", state.toString()), 120);
    }
  }

  @Test
  void genaiBenchThroughTheRouterCompletesAndAgreesWithTheRouter() throws Exception {
    Path sample = OperatorFixtures.repoRoot().resolve("deploy/samples/ome/benchmarkjob-local.yaml");
    RouterFigures before = routerFigures();
    UpEndToEndIT.Run apply = UpEndToEndIT.modelplane(concat(List.of("up", "-f", sample.toString()), upArgs), 600);
    assertThat(apply.exit()).as(apply.output()).isZero();
    try (KubernetesClient client = client()) {
      // The first run installs genai-bench from PyPI into the cache (minutes); later runs start at once.
      BenchmarkJobStatus status = awaitFinished(client, "qwen-chat-router", Duration.ofMinutes(20));
      assertThat(status.state()).as("%s", status).isEqualTo(BenchmarkState.Completed);
      RouterFigures after = routerFigures();
      // The name the pool's servers list (llama.cpp's alias: the Model's name), read by the operator from /v1/models.
      String listed = DevClusterCommand.JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(
          "http://127.0.0.1:" + port + "/inference-pools/default/qwen-chat/v1/models")).build(),
          HttpResponse.BodyHandlers.ofString()).body()).at("/data/0/id").asText();
      assertThat(status.modelName()).isEqualTo(listed).isEqualTo("qwen2-5-0-5b-instruct");
      assertThat(status.apiBase()).endsWith("/inference-pools/default/qwen-chat");
      assertThat(status.reportLocation()).isEqualTo("pvc://benchmark-results/qwen-chat/"
          + reportFolder(status.reportLocation()));
      assertThat(status.results()).extracting(BenchmarkResult::scenario, BenchmarkResult::concurrency)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("D(100,100)", 2),
              org.assertj.core.groups.Tuple.tuple("D(100,100)", 8), org.assertj.core.groups.Tuple.tuple("D(500,50)", 2),
              org.assertj.core.groups.Tuple.tuple("D(500,50)", 8));
      assertThat(status.resultsOmitted()).isIn(null, 0);
      int requests = 0;
      double e2eSum = 0;
      for (BenchmarkResult r : status.results()) {
        assertThat(r.errorRate()).isZero();
        assertThat(r.requests()).isPositive();
        assertThat(r.requestsPerSecond()).isPositive();
        assertThat(r.outputTokensPerSecond()).isPositive();
        assertThat(r.ttftSeconds().p50()).isPositive().isLessThanOrEqualTo(r.ttftSeconds().p99());
        assertThat(r.e2eLatencySeconds().p50()).isGreaterThan(r.ttftSeconds().p50());
        requests += r.requests();
        e2eSum += r.e2eLatencySeconds().mean() * r.requests();
      }
      double routerRequests = after.requests() - before.requests();
      double routerMeanE2e = (after.durationSum() - before.durationSum()) / routerRequests;
      double benchMeanE2e = e2eSum / requests;
      System.out.printf("benchmark figures: genai-bench %d requests, mean E2E %.3f s; router %.0f completed of %.0f "
          + "received, mean %.3f s%n", requests, benchMeanE2e, routerRequests, after.received() - before.received(),
          routerMeanE2e);
      assertThat(routerRequests).as("requests the router answered completely vs genai-bench's")
          .isBetween(requests * 0.9, requests * 1.1);
      assertThat(routerMeanE2e).as("mean request duration at the router vs genai-bench's mean E2E latency")
          .isBetween(benchMeanE2e * 0.9, benchMeanE2e * 1.1);

      Path plots = Files.createDirectories(state.resolve("plots"));
      UpEndToEndIT.Run report = UpEndToEndIT.modelplane(List.of("bench", "report", "qwen-chat-router",
          "--kubeconfig", state.resolve("kubeconfig").toString(), "--output-dir", plots.toString()), 120);
      assertThat(report.exit()).as(report.output()).isZero();
      assertThat(report.output()).contains("Completed", listed, "D(100,100)", "D(500,50)");
      try (var files = Files.list(plots)) {
        List<String> names = files.map(p -> p.getFileName().toString()).toList();
        assertThat(names).anyMatch(n -> n.endsWith(".svg")).anyMatch(n -> n.endsWith(".png"));
      }
    }
  }

  @Test
  void anLlmkubeServiceIsBenchmarkedAtItsServiceUrl() throws Exception {
    String manifest = claim("direct-results", "default") + """
        apiVersion: ome.io/v1beta1
        kind: BenchmarkJob
        metadata:
          name: qwen-chat-direct
          namespace: default
        spec:
          endpoint:
            inferenceService:
              name: qwen-chat
              namespace: default
              apiGroup: inference.llmkube.dev
          task: text-to-text
          trafficScenarios:
          - D(50,20)
          numConcurrency:
          - 1
          maxTimePerIteration: 1
          maxRequestsPerIteration: 4
          outputLocation:
            storageUri: pvc://direct-results/runs
        """;
    try (KubernetesClient client = client()) {
      apply(client, manifest);
      BenchmarkJobStatus status = awaitFinished(client, "qwen-chat-direct", Duration.ofMinutes(20));
      assertThat(status.state()).as("%s", status).isEqualTo(BenchmarkState.Completed);
      // The service's cluster DNS name, which the dev cluster's job pods reach at a ready pod of the service.
      assertThat(status.apiBase()).startsWith("http://qwen-chat.default.svc");
      assertThat(status.results()).singleElement().satisfies(r -> {
        assertThat(r.scenario()).isEqualTo("D(50,20)");
        assertThat(r.concurrency()).isEqualTo(1);
        assertThat(r.requests()).isGreaterThanOrEqualTo(4);
        assertThat(r.errorRate()).isZero();
      });
    }
  }

  @Test
  void anOmeServiceIsBenchmarkedWithItsModelsDirectoryAsTokenizer() throws Exception {
    Path sample = OperatorFixtures.repoRoot().resolve("deploy/samples/ome/inferenceservice-llama.yaml");
    UpEndToEndIT.Run apply = UpEndToEndIT.modelplane(concat(List.of("up", "-f", sample.toString()), upArgs), 600);
    assertThat(apply.exit()).as(apply.output()).isZero();
    String manifest = claim("ome-results", "llm") + """
        apiVersion: ome.io/v1beta1
        kind: BenchmarkJob
        metadata:
          name: llama-ome
          namespace: llm
        spec:
          endpoint:
            inferenceService:
              name: llama-3-1-8b
              namespace: llm
          task: text-to-text
          trafficScenarios:
          - D(50,20)
          numConcurrency:
          - 2
          maxTimePerIteration: 1
          maxRequestsPerIteration: 6
          serviceMetadata:
            engine: vLLM
            version: 0.8.5
            gpuType: H100
            gpuCount: 1
          outputLocation:
            storageUri: pvc://ome-results/runs
        """;
    try (KubernetesClient client = client()) {
      apply(client, manifest);
      BenchmarkJobStatus status = awaitFinished(client, "llm", "llama-ome", Duration.ofMinutes(20));
      assertThat(status.state()).as("%s", status).isEqualTo(BenchmarkState.Completed);
      assertThat(status.apiBase()).startsWith("http://llama-3-1-8b");
      assertThat(status.results()).singleElement().satisfies(r -> {
        assertThat(r.scenario()).isEqualTo("D(50,20)");
        assertThat(r.errorRate()).isZero();
      });
      var job = client.batch().v1().jobs().inNamespace("llm").withName("llama-ome").get();
      var pod = job.getSpec().getTemplate().getSpec();
      // The tokenizer is the model's directory on the node where the model agents placed the model.
      assertThat(pod.getInitContainers().get(0).getArgs()).contains("--model-tokenizer", "--api-backend", "vllm");
      assertThat(pod.getVolumes()).anySatisfy(v -> assertThat(v.getHostPath()).isNotNull());
      assertThat(pod.getNodeSelector()).isNotEmpty();
    }
  }

  @Test
  void anUnreachableEndpointFailsWithGenaiBenchsMessage() throws Exception {
    int closed = FreePorts.pick();
    String manifest = claim("nowhere-results", "default") + """
        apiVersion: ome.io/v1beta1
        kind: BenchmarkJob
        metadata:
          name: nowhere
          namespace: default
        spec:
          endpoint:
            endpoint:
              url: http://127.0.0.1:%d
              apiFormat: openai
              modelName: nothing-listens-here
          task: text-to-text
          trafficScenarios:
          - D(10,10)
          numConcurrency:
          - 1
          maxTimePerIteration: 1
          maxRequestsPerIteration: 2
          outputLocation:
            storageUri: pvc://nowhere-results/runs
        """.formatted(closed);
    try (KubernetesClient client = client()) {
      apply(client, manifest);
      BenchmarkJobStatus status = awaitFinished(client, "nowhere", Duration.ofMinutes(20));
      assertThat(status.state()).as("%s", status).isEqualTo(BenchmarkState.Failed);
      // genai-bench exits 1 when no request succeeded; its log tail is the pod's message.
      assertThat(status.failureMessage()).contains("container benchmark failed (exit code 1", "ttft");
      assertThat(status.completionTime()).isNotNull();
      assertThat(status.results()).isNullOrEmpty();
    }
  }

  /** A claim of the dev cluster's default class for a benchmark's results, as a manifest document. */
  private static String claim(String name, String namespace) {
    return """
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata:
          name: %s
          namespace: %s
        spec:
          accessModes: [ReadWriteOnce]
          resources:
            requests:
              storage: 1Gi
        ---
        """.formatted(name, namespace);
  }

  private static void apply(KubernetesClient client, String manifest) {
    for (var object : client.load(new java.io.ByteArrayInputStream(manifest.getBytes(
        java.nio.charset.StandardCharsets.UTF_8))).items()) {
      client.resource(object).fieldManager("benchmark-up-it").forceConflicts().serverSideApply();
    }
  }

  private static BenchmarkJobStatus awaitFinished(KubernetesClient client, String name, Duration timeout) {
    return awaitFinished(client, "default", name, timeout);
  }

  private static BenchmarkJobStatus awaitFinished(KubernetesClient client, String namespace, String name,
      Duration timeout) {
    BenchmarkJobStatus[] last = new BenchmarkJobStatus[1];
    await().atMost(timeout).pollInterval(Duration.ofSeconds(2)).until(() -> {
      BenchmarkJob job = client.resources(BenchmarkJob.class).inNamespace(namespace).withName(name).get();
      last[0] = job == null ? null : job.getStatus();
      return last[0] != null && (last[0].state() == BenchmarkState.Completed
          || last[0].state() == BenchmarkState.Failed);
    });
    return last[0];
  }

  private static String reportFolder(String location) {
    return location.substring(location.lastIndexOf('/') + 1);
  }

  /**
   * The router's own metrics (only the benchmark sends requests meanwhile): requests answered completely, their
   * summed duration, and all requests received.
   */
  record RouterFigures(double requests, double durationSum, double received) {
  }

  private static RouterFigures routerFigures() throws IOException, InterruptedException {
    String text = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()).body();
    // Requests the router saw through to their last byte (the duration histogram counts only those): genai-bench
    // also abandons the requests still in flight when an iteration reaches its request limit, and counts them nowhere.
    return new RouterFigures(sum(text, "inference_objective_request_duration_seconds_count"),
        sum(text, "inference_objective_request_duration_seconds_sum"), sum(text, "inference_objective_request_total"));
  }

  private static double sum(String metrics, String name) {
    return metrics.lines().filter(l -> l.startsWith(name + "{") || l.startsWith(name + " "))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
  }

  private static KubernetesClient client() throws IOException {
    return new KubernetesClientBuilder()
        .withConfig(Config.fromKubeconfig(Files.readString(state.resolve("kubeconfig")))).build();
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(Objects.requireNonNull(a));
    out.addAll(b);
    return out;
  }
}
