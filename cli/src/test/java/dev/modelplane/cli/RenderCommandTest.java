package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RenderCommandTest {
  @Test
  void rendersAServiceWithItsModelFromTheGivenFiles(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("llama.yaml");
    Files.writeString(file, """
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: Model
        metadata: {name: llama}
        spec: {source: "pvc://store/llama.gguf"}
        ---
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: InferenceService
        metadata: {name: chat, namespace: team}
        spec: {modelRef: llama, runtime: vllm}
        """);
    MainTest.Result r = MainTest.run("render", "-f", file.toString(), "-n", "team", "--model-cache", "none");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("kind: Deployment", "kind: Service", "- /model-source/llama.gguf",
        "targetPort: 8000", "namespace: team");
    assertThat(r.err()).isEmpty();
  }

  @Test
  void aMissingModelIsAnErrorOnStderr(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("isvc.yaml");
    Files.writeString(file, """
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: InferenceService
        metadata: {name: chat}
        spec: {modelRef: nowhere}
        """);
    MainTest.Result r = MainTest.run("render", "-f", file.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("spec.modelRef: Model nowhere is not in the given files");
  }

  @Test
  void omeServicesGetTheirRuntimeChosenFromTheGivenRuntimesAndAreRenderedByTheOperatorsBuilders() throws Exception {
    Path root = Path.of(System.getProperty("modelplane.repo.root", "..")).toAbsolutePath().normalize();
    MainTest.Result r = MainTest.run("render", "-f", root.resolve("deploy/samples/ome").toString(),
        root.resolve("deploy/runtimes").toString());
    assertThat(r.err()).contains("InferenceService llm/llama-3-1-8b (ome.io): runtime: ClusterServingRuntime "
        + "vllm-llama-small (named in spec.runtime)", "InferenceService llm/llama-3-3-70b-pd (ome.io): runtime: "
        + "ClusterServingRuntime sglang-llama-pd (named in spec.runtime)");
    assertThat(r.out()).contains("name: llama-3-1-8b-engine", "kind: ScaledObject", "name: llama-3-3-70b-pd-router",
        "--disaggregation-mode=decode", "name: mistral-7b-legacy-engine", "kind: InferencePool");
  }

  @Test
  void modelServicesRenderWithTheOperatorsModelServiceSettings() throws Exception {
    Path root = Path.of(System.getProperty("modelplane.repo.root", "..")).toAbsolutePath().normalize();
    Path sample = root.resolve("deploy/samples/otterscale/modelservice-aggregated.yaml");
    MainTest.Result r = MainTest.run("render", "-f", sample.toString(), "--modelservice-gateway", "infra/edge",
        "--modelservice-provider", "none", "--modelservice-picker-image", "mirror.example/epp:1",
        "--no-modelservice-metrics-auth");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("kind: InferencePool", "image: mirror.example/epp:1", "--metrics-endpoint-auth=false",
        "namespace: infra", "name: edge").doesNotContain("kind: DestinationRule");
    MainTest.Result bad = MainTest.run("render", "-f", sample.toString(), "--modelservice-provider", "aws");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("--modelservice-provider: provider must be istio, gke or none, got 'aws'");
    MainTest.Result badGateway = MainTest.run("render", "-f", sample.toString(), "--modelservice-gateway", "edge");
    assertThat(badGateway.err()).contains("--modelservice-gateway must be NAMESPACE/NAME, not 'edge'");
  }

  @Test
  void everyLlmkubeSampleServiceRendersWithTheModelsTheSamplesDefine() throws Exception {
    Path root = Path.of(System.getProperty("modelplane.repo.root", "..")).toAbsolutePath().normalize();
    MainTest.Result r = MainTest.run("render", "-f", root.resolve("deploy/samples/llmkube").toString());
    assertThat(r.code()).as(r.err()).isZero();
    // The samples carry the claims they mount; render creates none of them and says so, nothing else.
    assertThat(r.err().lines()).allMatch(l -> l.startsWith("skipped PersistentVolumeClaim (v1): "));
    assertThat(r.out().lines().filter(l -> l.equals("kind: Deployment")).count()).isEqualTo(8);
  }

  @Test
  void anOmeServiceNoRuntimeFitsListsTheExcludedRuntimes(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("ome.yaml");
    Files.writeString(file, """
        apiVersion: ome.io/v1beta1
        kind: ClusterBaseModel
        metadata: {name: tiny}
        spec:
          modelFormat: {name: onnx}
          modelFramework: {name: onnxruntime}
          storage: {storageUri: "hf://org/tiny", path: /raid/models/tiny}
        ---
        apiVersion: ome.io/v1beta1
        kind: InferenceService
        metadata: {name: tiny, namespace: llm}
        spec: {model: {name: tiny}, engine: {}}
        """);
    Path root = Path.of(System.getProperty("modelplane.repo.root", "..")).toAbsolutePath().normalize();
    MainTest.Result r = MainTest.run("render", "-f", file.toString(), root.resolve("deploy/runtimes").toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("error: InferenceService llm/tiny (ome.io): no runtime found to support model tiny "
        + "with format onnx in namespace llm. Checked 5 runtimes (0 namespace-scoped, 5 cluster-scoped). Excluded "
        + "runtimes: llama-cpp (model format 'mt:onnx:onnxruntime' not in supported formats: format name mismatch "
        + "(model=onnx, runtime=gguf), framework name mismatch (model=onnxruntime, runtime=llama.cpp)); sglang "
        + "(model format 'mt:onnx:onnxruntime' not in supported formats (8 checked); closest (sglang-llama): model "
        + "has no architecture but runtime requires LlamaForCausalLM, format name mismatch (model=onnx, "
        + "runtime=safetensors), framework name mismatch (model=onnxruntime, runtime=transformers)); ");
  }

  @Test
  void anUnknownModelCacheModeIsAUsageError(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("empty.yaml");
    Files.writeString(file, "");
    MainTest.Result r = MainTest.run("render", "-f", file.toString(), "--model-cache", "disabled");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--model-cache must be shared, per-service or none, not 'disabled'",
        "Usage: modelplane render");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void operatorRejectsInconsistentLeaseTimingBeforeConnecting() {
    MainTest.Result r = MainTest.run("operator", "--kubeconfig", "/nonexistent", "--lease-duration=5s",
        "--renew-deadline=5s");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("the lease duration (5s) must be longer than the renew deadline (5s)",
        "Usage: modelplane operator");
  }

  @Test
  void operatorRejectsANegativeRevalidationInterval() {
    MainTest.Result r = MainTest.run("operator", "--kubeconfig", "/nonexistent", "--model-revalidation-interval=-1s");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("the revalidation interval must not be negative", "Usage: modelplane operator");
  }

  @Test
  void operatorRejectsABenchmarkRouterUrlThatIsNotHttp() {
    MainTest.Result r = MainTest.run("operator", "--kubeconfig", "/nonexistent",
        "--benchmark-router-url=modelplane-router:8080");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--benchmark-router-url: the benchmark router URL must start with http:// or "
        + "https://, got modelplane-router:8080", "Usage: modelplane operator");
  }

  @Test
  void theDefaultUserAndGroupsOfGeneratedPodsAreFlags() {
    Path root = Path.of(System.getProperty("modelplane.repo.root", "..")).toAbsolutePath().normalize();
    String sample = root.resolve("deploy/samples/quickstart.yaml").toString();
    MainTest.Result defaults = MainTest.run("render", "-f", sample);
    assertThat(defaults.code()).as(defaults.err()).isZero();
    assertThat(defaults.out()).contains("runAsNonRoot: true", "runAsUser: 1000", "runAsGroup: 1000", "fsGroup: 102",
        "fsGroupChangePolicy: OnRootMismatch", "type: RuntimeDefault").doesNotContain("CHOWN", "runAsUser: 0");
    MainTest.Result r = MainTest.run("render", "-f", sample, "--default-run-as-user", "4242",
        "--default-run-as-group", "4343", "--default-fsgroup", "4444");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("runAsUser: 4242", "runAsGroup: 4343", "fsGroup: 4444")
        .doesNotContain("runAsUser: 1000");
    MainTest.Result root0 = MainTest.run("render", "-f", sample, "--default-run-as-user", "0");
    assertThat(root0.code()).isEqualTo(2);
    assertThat(root0.err()).contains("--default-run-as-user must be a non-root user (> 0)",
        "Usage: modelplane render");
  }
}
