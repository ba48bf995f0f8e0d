package dev.modelplane.cli.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;

import dev.modelplane.cli.devcluster.ServerKind;
import dev.modelplane.cli.devcluster.SimulatorArgs;
import dev.modelplane.cli.user.ManifestCheck;
import dev.modelplane.cli.user.UserError;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.render.ManifestRenderer;
import dev.modelplane.planner.fleet.RouterProfile;
import dev.modelplane.planner.search.Candidate;
import dev.modelplane.planner.workload.PlannedRequest;
import dev.modelplane.planner.workload.Workload;
import dev.modelplane.router.config.ConfigLoader;
import dev.modelplane.simulator.physics.Gpu;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanManifestsTest {
  private static final Path ROOT = PlanModelFromManifestTest.ROOT;

  @Test
  void anLlmkubeServiceIsWrittenBackWithThePlansReplicasGpusNodesAndPreciseRoutingAndRendersSo() throws Exception {
    PlanModel model = PlanModel.fromManifest(PlanModelFromManifestTest.fixture("llmkube-llama-70b.yaml"));
    String yaml = PlanManifests.emit(model, new Candidate("h200", 2, 3, RouterProfile.PRECISE), null);
    assertThat(yaml).startsWith("# modelplane plan: 3 replicas of llama-3.1-70b (served as \"llama-3-1-70b\"), each "
        + "on 2 x NVIDIA H200 (tensor parallelism 2), 6 GPUs in all; router profile precise\n")
        .contains("# note: spec.autoscaling removed: the plan is for a fixed number of replicas",
            "#   - type: precise-prefix-cache-scorer");
    List<HasMetadata> objects = render(yaml);
    assertThat(objects).noneMatch(o -> o.getKind().equals("HorizontalPodAutoscaler"));
    Deployment d = deployment(objects, "llama-chat");
    Container vllm = servingContainer(objects, d, 3, 2, "NVIDIA-H200");
    assertThat(vllm.getArgs()).containsSubsequence("--tensor-parallel-size", "2");
    assertThat(vllm.getArgs()).contains("--kv-events-config", "--prefix-caching-hash-algo", "sha256_cbor",
        "--block-size", "16");
    assertThat(vllm.getEnv()).anyMatch(e -> e.getName().equals("PYTHONHASHSEED") && e.getValue().equals("42"));
    assertSimulatedAsPlanned(d, vllm, "llama-3.1-70b", "h200", 2);
  }

  @Test
  void anOmeServiceIsWrittenBackWithTheEngineSizedAndTheRouterConfiguredByAnnotation() throws Exception {
    PlanModel model = PlanModel.fromManifest(ROOT.resolve("deploy/samples/ome/inferenceservice-llama.yaml"));
    String yaml = PlanManifests.emit(model, new Candidate("a100", 1, 4, RouterProfile.PRECISE), null);
    assertThat(yaml).contains("# note: the accelerator class is removed", "# note: a router component is added",
        "# note: ClusterBaseModel llama-3-1-8b-instruct: spec.storage downloads onto the plan's GPU nodes",
        "modelplane.dev/endpoint-picker-config: |").doesNotContain("NVIDIA-H100");
    List<HasMetadata> objects = render(yaml);
    Deployment engine = deployment(objects, "llama-3-1-8b-engine");
    Container server = servingContainer(objects, engine, 4, 1, "NVIDIA-A100-SXM4-80GB");
    assertThat(server.getArgs()).contains("--tensor-parallel-size=1", "--kv-events-config");
    assertThat(routerArgs(objects, "llama-3-1-8b-router")).contains("--config-text="
        + PickerProfiles.yaml(RouterProfile.PRECISE));
    assertSimulatedAsPlanned(engine, server, "llama-3.1-8b", "a100", 1);
  }

  @Test
  void anOmeServiceWithTheRuntimeElsewhereGetsPredictiveRoutingOnItsExistingRouter() throws Exception {
    PlanModel model = PlanModel.fromManifest(ROOT.resolve("deploy/samples/ome/inferenceservice-routed.yaml"));
    String yaml = PlanManifests.emit(model, new Candidate("a100", 2, 2, RouterProfile.PREDICTIVE), null);
    assertThat(yaml).doesNotContain("a router component is added", "services: only the first");
    List<HasMetadata> objects = render(yaml, ROOT.resolve("deploy/runtimes/vllm.yaml"));
    Deployment engine = deployment(objects, "qwen-chat-engine");
    Container server = servingContainer(objects, engine, 2, 2, "NVIDIA-A100-SXM4-80GB");
    assertThat(server.getArgs().getLast()).isEqualTo("--tensor-parallel-size=2");
    assertThat(routerArgs(objects, "qwen-chat-router")).anyMatch(a -> a.startsWith("--config-text=")
        && a.contains("predicted-latency-scorer"));
    assertSimulatedAsPlanned(engine, server, "qwen2.5-7b", "a100", 2);
  }

  @Test
  void anOtterscaleModelServiceIsWrittenBackWithDecodeSizedAndThePickerConfiguredByAnnotation() throws Exception {
    PlanModel model = PlanModel.fromManifest(PlanModelFromManifestTest.fixture("otterscale-llama-8b.yaml"));
    String yaml = PlanManifests.emit(model, new Candidate("h100", 2, 3, RouterProfile.PRECISE), null);
    List<HasMetadata> objects = render(yaml);
    Deployment decode = deployment(objects, "llama-8b-decode");
    Container vllm = servingContainer(objects, decode, 3, 2, "NVIDIA-H100-80GB-HBM3");
    assertThat(vllm.getArgs()).containsSubsequence("--tensor-parallel-size", "2");
    assertThat(vllm.getArgs()).contains("--kv-events-config");
    assertThat(objects).anyMatch(o -> o.getKind().equals("ConfigMap")
        && ((io.fabric8.kubernetes.api.model.ConfigMap) o).getData().values().stream()
        .anyMatch(v -> v.contains("precise-prefix-cache-scorer")));
    assertSimulatedAsPlanned(decode, vllm, "llama-3.1-8b", "h100", 2);
  }

  @Test
  void aPresetBecomesAnLlmkubeModelAndServiceWithAHeaderNamingThePlanRow() throws Exception {
    PlanModel model = PlanModel.fromPreset("llama-3.1-8b-h100");
    String yaml = PlanManifests.emit(model, new Candidate("l40s", 1, 2, RouterProfile.DEFAULT), null);
    assertThat(yaml).startsWith("# modelplane plan: 2 replicas of llama-3.1-8b (served as \"llama-3-1-8b\"), each on "
        + "1 x NVIDIA L40S (tensor parallelism 1), 2 GPUs in all; router profile default\n"
        + "# from --preset (llama-3.1-8b); GPU nodes selected by nvidia.com/gpu.product=NVIDIA-L40S\n")
        .contains("source: hf://meta-llama/Llama-3.1-8B-Instruct",
            "# note: LLMKube serves the model under its Model's name: clients send \"model\": \"llama-3-1-8b\"");
    List<HasMetadata> objects = render(yaml);
    Deployment d = deployment(objects, "llama-3-1-8b");
    Container vllm = servingContainer(objects, d, 2, 1, "NVIDIA-L40S");
    assertSimulatedAsPlanned(d, vllm, "llama-3.1-8b", "l40s", 1);
  }

  @Test
  void anLlmkubeModelAloneGetsAServiceAndAnOmeBaseModelAloneCannotBeEmitted(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("model.yaml");
    Files.writeString(file, """
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: Model
        metadata: {name: qwen-7b}
        spec: {source: "hf://Qwen/Qwen2.5-7B-Instruct", format: safetensors}
        """);
    String yaml = PlanManifests.emit(PlanModel.fromManifest(file), new Candidate("l4", 2, 1, RouterProfile.DEFAULT),
        null);
    assertThat(yaml).contains("# note: the file has no InferenceService: one serving its Model with vLLM is added");
    List<HasMetadata> objects = render(yaml);
    Deployment d = deployment(objects, "qwen-7b");
    Container vllm = servingContainer(objects, d, 1, 2, "NVIDIA-L4");
    assertSimulatedAsPlanned(d, vllm, "qwen2.5-7b", "l4", 2);

    Path base = dir.resolve("base.yaml");
    Files.writeString(base, """
        apiVersion: ome.io/v1beta1
        kind: BaseModel
        metadata: {name: llama-3-1-8b}
        spec: {modelFormat: {name: safetensors}, storage: {storageUri: "hf://meta-llama/Llama-3.1-8B"}}
        """);
    PlanModel ome = PlanModel.fromManifest(base);
    assertThatThrownBy(() -> PlanManifests.emit(ome, new Candidate("h100", 1, 1, RouterProfile.DEFAULT), null))
        .isInstanceOf(UserError.class).hasMessage(base + ": --emit needs an OME InferenceService in the file (it has "
            + "only the base model); add one, or plan from --model-config");
  }

  @Test
  void onlyTheFirstOfSeveralServicesIsSetToThePlanAndTheHeaderSaysSo(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("two.yaml");
    Files.writeString(file, """
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: Model
        metadata: {name: llama-3-2-1b}
        spec: {source: "hf://meta-llama/Llama-3.2-1B-Instruct", format: safetensors}
        ---
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: InferenceService
        metadata: {name: first}
        spec: {modelRef: llama-3-2-1b, runtime: vllm}
        ---
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: InferenceService
        metadata: {name: second}
        spec: {modelRef: llama-3-2-1b, runtime: vllm, replicas: 1}
        """);
    String yaml = PlanManifests.emit(PlanModel.fromManifest(file), new Candidate("l4", 1, 5, RouterProfile.DEFAULT),
        null);
    assertThat(yaml).contains("# note: the file holds 2 services: only the first, InferenceService default/first, "
        + "is set to the plan");
    List<HasMetadata> objects = render(yaml);
    servingContainer(objects, deployment(objects, "first"), 5, 1, "NVIDIA-L4");
    assertThat(deployment(objects, "second").getSpec().getReplicas()).isEqualTo(1);
  }

  @Test
  void aRequiredAffinityOnTheGpuProductIsNarrowedAndTheServersOwnTensorParallelFlagGivesWay(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("affinity.yaml");
    Files.writeString(file, """
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: Model
        metadata: {name: small}
        spec: {source: "hf://meta-llama/Llama-3.2-3B-Instruct", format: safetensors}
        ---
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: InferenceService
        metadata: {name: chat}
        spec:
          modelRef: small
          runtime: vllm
          extraArgs: [--served-model-name, assistant, --tensor-parallel-size, "4", --seed=7]
          affinity:
            nodeAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
                nodeSelectorTerms:
                - matchExpressions:
                  - {key: nvidia.com/gpu.product, operator: In, values: [NVIDIA-L40S, NVIDIA-L4]}
        """);
    PlanModel model = PlanModel.fromManifest(file);
    assertThat(model.tensorParallelSize()).isEqualTo(4);
    String yaml = PlanManifests.emit(model, new Candidate("h100", 2, 1, RouterProfile.DEFAULT), null);
    List<HasMetadata> objects = render(yaml);
    Deployment d = deployment(objects, "chat");
    Container vllm = servingContainer(objects, d, 1, 2, "NVIDIA-H100-80GB-HBM3");
    assertThat(d.getSpec().getTemplate().getSpec().getAffinity().getNodeAffinity()
        .getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms().getFirst().getMatchExpressions()
        .getFirst().getValues()).containsExactly("NVIDIA-H100-80GB-HBM3");
    assertThat(vllm.getArgs()).containsSubsequence("--tensor-parallel-size", "2").doesNotContain("4")
        .contains("--seed=7", "assistant");
    assertSimulatedAsPlanned(d, vllm, "llama-3.2-3b", "h100", 2);
  }

  @Test
  void aWorkloadsAdaptersAreNamedInTheHeader() throws Exception {
    PlanModel model = PlanModel.fromConfig("qwen2.5-7b");
    String yaml = PlanManifests.emit(model, new Candidate("h100", 1, 1, RouterProfile.DEFAULT),
        new AdapterWorkload(Set.of("sql", "chat-fr")));
    assertThat(yaml).contains("# from --model-config qwen2.5-7b;",
        "# note: the workload asks for LoRA adapters chat-fr, sql: serve them on every replica");
  }

  @Test
  void everyProfilesConfigurationLoadsInTheRouter() {
    for (RouterProfile p : RouterProfile.values()) {
      ConfigLoader.parse(PickerProfiles.yaml(p));
    }
    assertThat(PickerProfiles.yaml(RouterProfile.PRECISE)).contains("precise-prefix-cache-scorer", "blockSize: 16",
        "hashSeed: \"42\"").doesNotContain("- type: prefix-cache-scorer");
  }

  /** Renders emitted YAML (and more files) as {@code render} does; fails on any error. */
  private static List<HasMetadata> render(String yaml, Path... more) throws Exception {
    ManifestCheck.check("emitted.yaml", yaml, "default");
    List<String> messages = new ArrayList<>();
    List<HasMetadata> manifests = new ArrayList<>(ManifestRenderer.parse(yaml, messages));
    for (Path p : more) {
      manifests.addAll(ManifestRenderer.parse(Files.readString(p), messages));
    }
    ManifestRenderer.Result r = ManifestRenderer.render(manifests, OperatorSettings.defaults(), "default");
    assertThat(r.failed()).as(String.join("\n", r.messages())).isFalse();
    assertThat(r.messages()).noneMatch(m -> m.contains("error"));
    return r.objects();
  }

  private static Deployment deployment(List<HasMetadata> objects, String name) {
    return objects.stream().filter(o -> o instanceof Deployment && o.getMetadata().getName().equals(name))
        .map(Deployment.class::cast).findFirst().orElseThrow(() -> new AssertionError("no Deployment " + name
            + " in " + objects.stream().map(o -> o.getKind() + "/" + o.getMetadata().getName()).toList()));
  }

  /** Asserts replicas, GPUs per pod and the node label; returns the container that asks for the GPUs. */
  private static Container servingContainer(List<HasMetadata> objects, Deployment d, int replicas, int gpus,
      String product) {
    assertThat(replicas(objects, d)).isEqualTo(replicas);
    var pod = d.getSpec().getTemplate().getSpec();
    assertThat(pod.getNodeSelector()).containsEntry("nvidia.com/gpu.product", product);
    Container c = pod.getContainers().stream().filter(x -> x.getResources() != null
        && x.getResources().getLimits() != null && x.getResources().getLimits().containsKey("nvidia.com/gpu"))
        .findFirst().orElseThrow();
    assertThat(c.getResources().getLimits().get("nvidia.com/gpu").getNumericalAmount().intValue()).isEqualTo(gpus);
    return c;
  }

  /**
   * The Deployment's replicas, or, when an autoscaler owns them (OME's HPA or KEDA ScaledObject), its minimum,
   * which must equal its maximum: the plan is for a fixed number.
   */
  private static int replicas(List<HasMetadata> objects, Deployment d) {
    if (d.getSpec().getReplicas() != null) {
      return d.getSpec().getReplicas();
    }
    for (HasMetadata o : objects) {
      JsonNode tree = Serialization.jsonMapper().valueToTree(o);
      JsonNode spec = tree.path("spec");
      if (d.getMetadata().getName().equals(spec.path("scaleTargetRef").path("name").asText())) {
        String min = o.getKind().equals("ScaledObject") ? "minReplicaCount" : "minReplicas";
        String max = o.getKind().equals("ScaledObject") ? "maxReplicaCount" : "maxReplicas";
        assertThat(spec.path(min).asInt()).as(o.getKind()).isEqualTo(spec.path(max).asInt());
        return spec.path(min).asInt();
      }
    }
    throw new AssertionError("Deployment " + d.getMetadata().getName() + " has no replicas and no autoscaler");
  }

  private static List<String> routerArgs(List<HasMetadata> objects, String name) {
    return deployment(objects, name).getSpec().getTemplate().getSpec().getContainers().getFirst().getArgs();
  }

  /** The dev cluster's simulator for the rendered pod runs the geometry, GPU and TP the plan simulated. */
  private static void assertSimulatedAsPlanned(Deployment d, Container c, String geometry, String gpu, int tp) {
    Pod pod = new PodBuilder().withMetadata(d.getSpec().getTemplate().getMetadata())
        .withSpec(d.getSpec().getTemplate().getSpec()).build();
    List<String> args = SimulatorArgs.plan(pod, c, ServerKind.VLLM, GpuNodes.labelValue(Gpu.byName(gpu))).args();
    assertThat(args).as(String.join(" ", args)).containsSubsequence("--model-config", geometry, "--gpu", gpu,
        "--tensor-parallel-size", Integer.toString(tp));
  }

  /** A workload that only names adapters (emit reads nothing else). */
  private record AdapterWorkload(Set<String> adapters) implements Workload {
    @Override
    public Iterator<PlannedRequest> requests() {
      return Collections.emptyIterator();
    }

    @Override
    public String describe() {
      return "adapters only";
    }

    @Override
    public double rate() {
      return 1;
    }

    @Override
    public Workload atRate(double requestsPerSecond) {
      return this;
    }
  }
}
