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

  /**
   * One configuration to run live and simulate: an LLMKube Model, InferenceService and InferencePool named
   * {@code name} (a name the dev cluster reads the model's geometry from), and the workload sent to it.
   */
  record Case(String name, String source, String gpuProduct, int tensorParallel, int replicas, String workload) {
    String manifest() {
      return """
          apiVersion: inference.llmkube.dev/v1alpha1
          kind: Model
          metadata:
            name: %1$s
          spec:
            source: %2$s
            format: safetensors
            hardware:
              accelerator: cuda
              gpu: {enabled: true, count: %4$d, vendor: nvidia}
          ---
          apiVersion: inference.llmkube.dev/v1alpha1
          kind: InferenceService
          metadata:
            name: %1$s
          spec:
            modelRef: %1$s
            runtime: vllm
            replicas: %5$d
            resources:
              gpu: %4$d
            nodeSelector:
              nvidia.com/gpu.product: %3$s
            vllmConfig:
              tensorParallelSize: %4$d
              enablePrefixCaching: true
          ---
          apiVersion: inference.networking.k8s.io/v1
          kind: InferencePool
          metadata:
            name: %1$s
          spec:
            selector:
              matchLabels:
                app: %1$s
            targetPorts:
            - number: 8000
            endpointPickerRef:
              name: modelplane-router
              port:
                number: 9002
          """.formatted(name, source, gpuProduct, tensorParallel, replicas);
    }
  }

  /**
   * The case CI runs: prompts of 3,000 tokens, the first 1,000 shared with a quarter of the others, on two 70B
   * replicas. Each prefill of the rest takes about 140 ms, so the few milliseconds the live stack adds per request
   * (HTTP, JSON, tokenizing — not part of the hardware model) stay small beside what the model predicts.
   */
  static final Case CI_CASE = new Case("llama-3-1-70b-tp4", "hf://meta-llama/Llama-3.1-70B-Instruct",
      "NVIDIA-H100-80GB-HBM3", 4, 2, """
      arrival: {process: poisson, rate: 4}
      requests: 240
      prompt: {fixed: 3000}
      output: {fixed: 48}
      prefix: {groups: 4, tokens: 1000, share: 1.0}
      """);

  /** More configurations for the table in docs/planner.md ({@code MODELPLANE_PLAN_AGREEMENT=all}). */
  static final List<Case> MORE_CASES = List.of(
      new Case("llama-3-1-8b-h100", "hf://meta-llama/Llama-3.1-8B-Instruct", "NVIDIA-H100-80GB-HBM3", 1, 4, """
          arrival: {process: poisson, rate: 12}
          requests: 480
          prompt: {fixed: 3000}
          output: {fixed: 64}
          prefix: {groups: 8, tokens: 1000, share: 1.0}
          """),
      new Case("llama-3-1-70b-tp8", "hf://meta-llama/Llama-3.1-70B-Instruct", "NVIDIA-H100-80GB-HBM3", 8, 1, """
          arrival: {process: poisson, rate: 3}
          requests: 180
          prompt: {fixed: 3000}
          output: {fixed: 48}
          prefix: {groups: 4, tokens: 1000, share: 1.0}
          """),
      new Case("llama-3-1-8b-l4", "hf://meta-llama/Llama-3.1-8B-Instruct", "NVIDIA-L4", 1, 3, """
          arrival: {process: poisson, rate: 1.5}
          requests: 120
          prompt: {fixed: 2000}
          output: {fixed: 32}
          prefix: {groups: 4, tokens: 500, share: 1.0}
          """),
      new Case("llama-3-2-3b-l40s", "hf://meta-llama/Llama-3.2-3B-Instruct", "NVIDIA-L40S", 1, 2, """
          arrival: {process: poisson, rate: 8}
          requests: 320
          prompt: {fixed: 3000}
          output: {fixed: 64}
          prefix: {groups: 4, tokens: 1000, share: 1.0}
          """));

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

  /** Waits (at most two minutes) until the router has scraped {@code count} endpoints of {@code poolName}. */
  private static void awaitScrapedEndpoints(int metricsPort, String poolName, int count) throws Exception {
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    java.net.URI uri = java.net.URI.create("http://127.0.0.1:" + metricsPort + "/ui/state");
    String last = "";
    for (int i = 0; i < 240; i++) {
      last = http.send(java.net.http.HttpRequest.newBuilder(uri).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString()).body();
      com.fasterxml.jackson.databind.JsonNode pools = DevClusterCommand.JSON.readTree(last).path("pools");
      for (com.fasterxml.jackson.databind.JsonNode pool : pools) {
        if (pool.path("name").asText().equals(poolName)) {
          long scraped = java.util.stream.StreamSupport.stream(pool.path("endpoints").spliterator(), false)
              .filter(e -> e.path("scraped").asBoolean()).count();
          if (scraped >= count) {
            return;
          }
        }
      }
      Thread.sleep(500);
    }
    throw new AssertionError("the router never scraped " + count + " endpoints of " + poolName + ": " + last);
  }

  @Test
  void thePlanAgreesWithALiveRunWithinTenPercent() throws Exception {
    List<Case> cases = new ArrayList<>(List.of(CI_CASE));
    if ("all".equals(System.getenv("MODELPLANE_PLAN_AGREEMENT"))) {
      cases.addAll(MORE_CASES);
    }
    List<String> table = new ArrayList<>();
    table.add("| configuration | workload | TTFT p50 plan / live | TTFT p90 plan / live | req/s plan / live "
        + "| E2E p50 plan / live | simulated in |");
    table.add("|---|---|---|---|---|---|---|");
    Comparison first = null;
    for (Case c : cases) {
      Comparison result = compare(c);
      table.add(result.row());
      Files.write(Path.of("target", "plan-agreement.md"), table);
      first = first == null ? result : first;
      // Its GPUs go back for the next case.
      UpEndToEndIT.Run deleted = modelplane(List.of("delete", c.name(), "--kubeconfig",
          state.resolve("kubeconfig").toString()), 120);
      assertThat(deleted.exit()).as(deleted.output()).isZero();
    }
    System.out.println(String.join("\n", table));
    Comparison c = first;
    String report = c.row();
    assertThat(c.live().failed()).as(report).isZero();
    assertThat(c.plan().completed()).as(report).isEqualTo(c.live().completed());
    assertThat(c.plan().ttft().p50()).as(report).isCloseTo(c.live().ttftPercentile(50),
        org.assertj.core.data.Percentage.withPercentage(10));
    assertThat(c.plan().ttft().p90()).as(report).isCloseTo(c.live().ttftPercentile(90),
        org.assertj.core.data.Percentage.withPercentage(10));
    assertThat(c.plan().requestsPerSecond()).as(report).isCloseTo(c.live().requestsPerSecond(),
        org.assertj.core.data.Percentage.withPercentage(10));
  }

  /** One case's plan and live run, side by side. */
  record Comparison(Case c, Workload workload, FleetResult plan, LiveReplay.Result live) {
    String row() {
      return String.format(java.util.Locale.ROOT,
          "| %s ×%d (TP %d) | %s | %.0f / %.0f ms | %.0f / %.0f ms | %.2f / %.2f | %.2f / %.2f s | %.2f s |",
          c.name(), c.replicas(), c.tensorParallel(), workload.describe(), plan.ttft().p50() * 1e3,
          live.ttftPercentile(50) * 1e3, plan.ttft().p90() * 1e3, live.ttftPercentile(90) * 1e3,
          plan.requestsPerSecond(), live.requestsPerSecond(), plan.e2e().p50(),
          LiveReplay.Result.percentile(live.e2e(), 50), plan.wallSeconds());
    }
  }

  private static Comparison compare(Case c) throws Exception {
    Path manifest = Files.writeString(state.resolve(c.name() + ".yaml"), c.manifest());
    List<String> up = new ArrayList<>(List.of("up", "-f", manifest.toString()));
    up.addAll(UpEndToEndIT.upArgs(state, "5m"));
    UpEndToEndIT.Run started = modelplane(up, 600);
    assertThat(started.exit()).as(started.output()).isZero();
    PlatformState platform = PlatformState.read(state).orElseThrow();
    awaitScrapedEndpoints(platform.metricsPort(), c.name(), c.replicas());

    // The flags the dev cluster gave each live replica's simulator: the planner runs exactly these.
    List<List<String>> flags = new ArrayList<>();
    try (KubernetesClient client = new KubernetesClientBuilder()
        .withConfig(Config.fromKubeconfig(Files.readString(state.resolve("kubeconfig")))).build()) {
      for (Pod pod : client.pods().inNamespace("default").withLabel("app", c.name()).list().getItems()) {
        String gpu = client.nodes().withName(pod.getSpec().getNodeName()).get().getMetadata().getLabels()
            .get("nvidia.com/gpu.product");
        for (Container container : pod.getSpec().getContainers()) {
          ServerKind.of(container).ifPresent(kind -> flags.add(SimulatorArgs.plan(pod, container, kind, gpu)
              .args()));
        }
      }
    }
    assertThat(flags).hasSize(c.replicas());
    assertThat(Set.copyOf(flags)).as("every replica alike").hasSize(1);
    List<String> args = flags.get(0);
    String gpu = dev.modelplane.simulator.physics.Gpu.byProduct(c.gpuProduct()).name();
    assertThat(String.join(" ", args)).contains("--gpu " + gpu, "--tensor-parallel-size " + c.tensorParallel());
    String served = args.get(args.indexOf("--served-model-name") + 1);

    Path workloadFile = Files.writeString(state.resolve(c.name() + "-workload.yaml"), c.workload());
    Workload workload = Workloads.file(workloadFile, null, null, SEED);
    FleetResult plan = FleetSimulation.run(new FleetConfig(args, c.replicas(), RouterProfile.DEFAULT), workload,
        SEED);
    LiveReplay.Result live = LiveReplay.run("http://127.0.0.1:" + platform.port(), workload,
        new RequestBodies(SEED, served), List.of(EndpointCheck.POOL_HEADER, c.name()));
    return new Comparison(c, workload, plan, live);
  }
}
