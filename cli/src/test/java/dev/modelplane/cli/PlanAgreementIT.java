package dev.modelplane.cli;

import static dev.modelplane.cli.UpEndToEndIT.modelplane;
import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.cli.devcluster.ServerKind;
import dev.modelplane.cli.devcluster.SimulatorArgs;
import dev.modelplane.controlplane.ControlPlaneBinaries;
import dev.modelplane.planner.fleet.FleetConfig;
import dev.modelplane.planner.fleet.FleetResult;
import dev.modelplane.planner.fleet.FleetSimulation;
import dev.modelplane.planner.fleet.RequestBodies;
import dev.modelplane.planner.fleet.RouterProfile;
import dev.modelplane.planner.workload.Workload;
import dev.modelplane.planner.workload.Workloads;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The planner's honesty check: a fleet the dev cluster can run live (two Llama-3.1-70B replicas, tensor parallel 4
 * on the H100 node, the router's default profile) gets the same workload — same seed, same request bytes, same
 * arrival times — once through {@code modelplane up} with simulators in real time and once through the planner's
 * virtual-time simulation, configured with the very simulator flags the dev cluster gave the live pods. TTFT p50 and
 * p90 and throughput must agree within 10 %.
 */
class PlanAgreementIT {
  private static final long SEED = 11;
  private static final String MANIFEST = """
      apiVersion: inference.llmkube.dev/v1alpha1
      kind: Model
      metadata:
        name: llama-70b
      spec:
        source: hf://meta-llama/Llama-3.1-70B-Instruct
        format: safetensors
        hardware:
          accelerator: cuda
          gpu: {enabled: true, count: 4, vendor: nvidia}
      ---
      apiVersion: inference.llmkube.dev/v1alpha1
      kind: InferenceService
      metadata:
        name: plan-check
      spec:
        modelRef: llama-70b
        runtime: vllm
        replicas: 2
        resources:
          gpu: 4
        nodeSelector:
          nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3
        vllmConfig:
          tensorParallelSize: 4
          enablePrefixCaching: true
      ---
      apiVersion: inference.networking.k8s.io/v1
      kind: InferencePool
      metadata:
        name: plan-check
      spec:
        selector:
          matchLabels:
            app: plan-check
        targetPorts:
        - number: 8000
        endpointPickerRef:
          name: modelplane-router
          port:
            number: 9002
      """;
  /**
   * Prompts of 3,000 tokens, the first 1,000 shared with a quarter of the others: each prefill of the rest takes
   * about 140 ms on the fleet, so the few milliseconds the live stack adds per request (HTTP, JSON, tokenizing — not
   * part of the hardware model) stay small beside the time the model predicts.
   */
  private static final String WORKLOAD = """
      arrival: {process: poisson, rate: 4}
      requests: 240
      prompt: {fixed: 3000}
      output: {fixed: 48}
      prefix: {groups: 4, tokens: 1000, share: 1.0}
      seed: 11
      """;

  @TempDir
  static Path state;

  @BeforeAll
  static void binaries() {
    if (ControlPlaneBinaries.find().isEmpty()) {
      if ("true".equals(System.getenv("CI"))) {
        throw new IllegalStateException("CI=true and no control-plane binaries: run hack/control-plane/build.sh");
      }
      Assumptions.abort("skipped: " + ControlPlaneBinaries.missingMessage());
    }
  }

  @AfterAll
  static void down() throws Exception {
    if (state != null && Files.exists(state)) {
      modelplane(List.of("down", "--state-dir", state.toString()), 120);
    }
  }

  /** Waits (at most two minutes) until the router has scraped {@code count} endpoints of the pool. */
  private static void awaitScrapedEndpoints(int metricsPort, int count) throws Exception {
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    java.net.URI uri = java.net.URI.create("http://127.0.0.1:" + metricsPort + "/ui/state");
    String last = "";
    for (int i = 0; i < 240; i++) {
      last = http.send(java.net.http.HttpRequest.newBuilder(uri).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString()).body();
      com.fasterxml.jackson.databind.JsonNode pools = DevClusterCommand.JSON.readTree(last).path("pools");
      for (com.fasterxml.jackson.databind.JsonNode pool : pools) {
        if (pool.path("name").asText().equals("plan-check")) {
          long scraped = java.util.stream.StreamSupport.stream(pool.path("endpoints").spliterator(), false)
              .filter(e -> e.path("scraped").asBoolean()).count();
          if (scraped >= count) {
            return;
          }
        }
      }
      Thread.sleep(500);
    }
    throw new AssertionError("the router never scraped " + count + " endpoints of plan-check: " + last);
  }

  @Test
  void thePlanAgreesWithALiveRunWithinTenPercent() throws Exception {
    Path manifest = Files.writeString(state.resolve("plan-check.yaml"), MANIFEST);
    List<String> up = new ArrayList<>(List.of("up", "-f", manifest.toString()));
    up.addAll(UpEndToEndIT.upArgs(state, "5m"));
    UpEndToEndIT.Run started = modelplane(up, 600);
    assertThat(started.exit()).as(started.output()).isZero();
    PlatformState platform = PlatformState.read(state).orElseThrow();
    int port = platform.port();
    awaitScrapedEndpoints(platform.metricsPort(), 2);

    // The flags the dev cluster gave each live replica's simulator: the planner runs exactly these.
    List<List<String>> flags = new ArrayList<>();
    try (KubernetesClient client = new KubernetesClientBuilder()
        .withConfig(Config.fromKubeconfig(Files.readString(state.resolve("kubeconfig")))).build()) {
      for (Pod pod : client.pods().inNamespace("default").withLabel("app", "plan-check").list().getItems()) {
        String gpu = client.nodes().withName(pod.getSpec().getNodeName()).get().getMetadata().getLabels()
            .get("nvidia.com/gpu.product");
        for (Container c : pod.getSpec().getContainers()) {
          ServerKind.of(c).ifPresent(kind -> flags.add(SimulatorArgs.plan(pod, c, kind, gpu).args()));
        }
      }
    }
    assertThat(flags).hasSize(2);
    assertThat(Set.copyOf(flags)).as("both replicas alike").hasSize(1);
    List<String> args = flags.get(0);
    assertThat(String.join(" ", args)).contains("--gpu h100", "--tensor-parallel-size 4", "--model-config llama-3.1-70b");
    String served = args.get(args.indexOf("--served-model-name") + 1);

    Path workloadFile = Files.writeString(state.resolve("workload.yaml"), WORKLOAD);
    Workload workload = new TmpWorkload(4, 240, 3000, 48, 4, 1000, SEED);
    FleetResult plan = FleetSimulation.run(new FleetConfig(args, 2, RouterProfile.DEFAULT), workload, SEED);
    LiveReplay.Result live = LiveReplay.run("http://127.0.0.1:" + port, workload, new RequestBodies(SEED, served),
        List.of(EndpointCheck.POOL_HEADER, "plan-check"));

    String report = String.format(java.util.Locale.ROOT,
        "plan vs live: TTFT p50 %.1f vs %.1f ms, p90 %.1f vs %.1f ms, %.2f vs %.2f req/s, e2e p50 %.2f vs %.2f s, "
            + "completed %d vs %d, simulated in %.2f s",
        plan.ttft().p50() * 1e3, live.ttftPercentile(50) * 1e3, plan.ttft().p90() * 1e3,
        live.ttftPercentile(90) * 1e3, plan.requestsPerSecond(), live.requestsPerSecond(), plan.e2e().p50(),
        LiveReplay.Result.percentile(live.e2e(), 50), plan.completed(), live.completed(), plan.wallSeconds());
    System.out.println(report);
    Files.writeString(Path.of("target", "plan-agreement.txt"), report + "\n");
    assertThat(live.failed()).as(report).isZero();
    assertThat(plan.completed()).as(report).isEqualTo(240);
    assertThat(plan.ttft().p50()).as(report).isCloseTo(live.ttftPercentile(50),
        org.assertj.core.data.Percentage.withPercentage(10));
    assertThat(plan.ttft().p90()).as(report).isCloseTo(live.ttftPercentile(90),
        org.assertj.core.data.Percentage.withPercentage(10));
    assertThat(plan.requestsPerSecond()).as(report).isCloseTo(live.requestsPerSecond(),
        org.assertj.core.data.Percentage.withPercentage(10));
  }
}
