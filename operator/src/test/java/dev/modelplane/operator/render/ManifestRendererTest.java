package dev.modelplane.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.operator.OperatorSettings;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManifestRendererTest {
  private static final String MANIFESTS = """
      # a comment-only document is skipped
      ---
      apiVersion: inference.llmkube.dev/v1alpha1
      kind: Model
      metadata: {name: llama}
      spec:
        source: https://example.com/llama.gguf
        hardware: {gpu: {count: 1}}
      ---
      apiVersion: inference.llmkube.dev/v1alpha1
      kind: InferenceService
      metadata: {name: chat}
      spec:
        modelRef: llama
        autoscaling: {maxReplicas: 3}
      ---
      apiVersion: inference.llmkube.dev/v1alpha1
      kind: InferenceService
      metadata: {name: chat2}
      spec:
        modelRef: llama
        runtime: vllm
        contextSize: 4096
      ---
      apiVersion: inference.llmkube.dev/v1alpha1
      kind: InferenceService
      metadata: {name: orphan, namespace: other}
      spec: {modelRef: llama}
      ---
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: unrelated}
      """;

  @Test
  void rendersEveryObjectOnceWithMessagesForTheRest() {
    List<String> messages = new ArrayList<>();
    List<HasMetadata> manifests = ManifestRenderer.parse(MANIFESTS, messages);
    assertThat(manifests).hasSize(4);
    ManifestRenderer.Result result = ManifestRenderer.render(manifests, OperatorSettings.defaults(), "default");
    assertThat(result.objects()).extracting(o -> o.getKind() + "/" + o.getMetadata().getName()).containsExactly(
        "PersistentVolumeClaim/llmkube-model-cache", "Deployment/chat", "Service/chat",
        "HorizontalPodAutoscaler/chat", "Deployment/chat2", "Service/chat2");
    assertThat(result.objects()).allSatisfy(o -> assertThat(o.getMetadata().getNamespace()).isEqualTo("default"));
    assertThat(result.failed()).isTrue();
    assertThat(messages).containsExactly(
        "skipped ConfigMap (v1): render expands LLMKube and OME InferenceServices, OME BenchmarkJobs and OtterScale ModelServices, "
            + "and checks OME base models");
    assertThat(result.messages()).containsExactly(
        "InferenceService default/chat2: warning: spec.contextSize: ignored with runtime vllm: only the llamacpp "
            + "runtime reads it",
        "InferenceService other/orphan: error: spec.modelRef: Model llama is not in the given files");
    String yaml = result.yaml();
    assertThat(yaml).startsWith("---\n").contains("\nkind: Deployment\n").contains("--n-gpu-layers")
        .contains("llamacpp:requests_processing");
  }

  @Test
  void everySampleRenders() throws IOException {
    Path samples = Path.of("..", "deploy", "samples", "llmkube");
    StringBuilder all = new StringBuilder();
    try (var files = Files.list(samples)) {
      for (Path f : files.sorted().toList()) {
        all.append(Files.readString(f)).append("\n---\n");
      }
    }
    all.append("""
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: Model
        metadata: {name: qwen3-30b-a3b}
        spec: {source: "hf://unsloth/Qwen3-30B-A3B-GGUF", files: [Qwen3-30B-A3B-Q4_K_M.gguf]}
        ---
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: Model
        metadata: {name: mistral-7b-gptq}
        spec: {source: "TheBloke/Mistral-7B-Instruct-v0.2-GPTQ", format: safetensors}
        ---
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: Model
        metadata: {name: qwen-2-5-coder-32b}
        spec: {source: "Qwen/Qwen2.5-Coder-32B-Instruct-AWQ", format: safetensors}
        ---
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: Model
        metadata: {name: qwen3-coder-30b-a3b}
        spec: {source: "Qwen/Qwen3-Coder-30B-A3B-Instruct-FP8", format: safetensors}
        ---
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: Model
        metadata: {name: llama-3-2-1b}
        spec: {source: "https://example.com/Llama-3.2-1B-Instruct-Q8_0.gguf"}
        ---
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: Model
        metadata: {name: bge-m3}
        spec: {source: "hf://BAAI/bge-m3-gguf", files: [bge-m3-Q8_0.gguf]}
        """);
    List<String> messages = new ArrayList<>();
    ManifestRenderer.Result result = ManifestRenderer.render(ManifestRenderer.parse(all.toString(), messages),
        OperatorSettings.defaults(), "default");
    assertThat(result.failed()).as(String.join("\n", result.messages())).isFalse();
    assertThat(result.objects()).filteredOn(o -> o.getKind().equals("Deployment")).hasSize(8);
  }

  @Test
  void modelServiceSamplesRenderTheirServingPickerPoolRouteAndClusterRbac() throws IOException {
    StringBuilder all = new StringBuilder();
    try (var files = Files.list(Path.of("..", "deploy", "samples", "otterscale"))) {
      for (Path f : files.sorted().toList()) {
        all.append(Files.readString(f)).append("\n---\n");
      }
    }
    List<String> messages = new ArrayList<>();
    List<HasMetadata> manifests = ManifestRenderer.parse(all.toString(), messages);
    assertThat(messages).isEmpty();
    ManifestRenderer.Result result = ManifestRenderer.render(manifests, OperatorSettings.defaults(), "default");
    assertThat(result.failed()).as(String.join("\n", result.messages())).isFalse();
    List<String> kinds = result.objects().stream().map(HasMetadata::getKind).distinct().toList();
    assertThat(kinds).contains("Deployment", "ServiceAccount", "ConfigMap", "Service", "Role", "RoleBinding",
        "InferencePool", "HTTPRoute", "DestinationRule", "PodMonitor");
    assertThat(result.objects()).filteredOn(o -> o.getKind().equals("InferencePool")).hasSize(manifests.size());
    assertThat(result.yaml()).contains("kind: InferencePool", "checksum/config", "vllm");
    ManifestRenderer.Result incomplete = ManifestRenderer.render(ManifestRenderer.parse("""
        apiVersion: model.otterscale.io/v1alpha1
        kind: ModelService
        metadata: {name: half}
        spec:
          model: {name: m}
          accelerator: {}
        """, messages), OperatorSettings.defaults(), "team");
    assertThat(incomplete.failed()).isTrue();
    assertThat(incomplete.objects()).isEmpty();
    assertThat(incomplete.messages()).containsExactly("ModelService team/half: error: required but missing: "
        + "spec.model.image, spec.engine, spec.accelerator.type, spec.decode");
  }

  @Test
  void baseModelsRenderNothingAndReportStorageProblemsNamingTheField() {
    List<String> messages = new ArrayList<>();
    List<HasMetadata> manifests = ManifestRenderer.parse("""
        apiVersion: ome.io/v1beta1
        kind: ClusterBaseModel
        metadata: {name: llama}
        spec:
          storage: {storageUri: "hf://meta-llama/Llama-3.1-8B", path: /mnt/models/llama}
        ---
        apiVersion: ome.io/v1beta1
        kind: BaseModel
        metadata: {name: on-ftp}
        spec:
          storage: {storageUri: "ftp://host/llama", path: /mnt/models/team/ftp}
        """, messages);
    assertThat(manifests).extracting(HasMetadata::getKind).containsExactly("ClusterBaseModel", "BaseModel");
    assertThat(messages).isEmpty();
    ManifestRenderer.Result result = ManifestRenderer.render(manifests, OperatorSettings.defaults(), "team");
    assertThat(result.objects()).isEmpty();
    assertThat(result.failed()).isTrue();
    assertThat(result.messages()).singleElement().asString().startsWith("BaseModel team/on-ftp: error: "
        + "spec.storage.storageUri: ").contains("ftp");
    assertThat(manifests.getFirst().getMetadata().getNamespace()).as("cluster-scoped").isNull();
  }

  @Test
  void benchmarkJobsRenderTheirJobForAUrlAndSayWhatTheClusterMustGiveOtherwise() {
    List<String> messages = new ArrayList<>();
    List<HasMetadata> manifests = ManifestRenderer.parse("""
        apiVersion: ome.io/v1beta1
        kind: BenchmarkJob
        metadata: {name: by-url, namespace: team}
        spec:
          endpoint: {endpoint: {url: "http://chat.team.svc:8080/", apiFormat: openai, modelName: chat}}
          task: text-to-text
          trafficScenarios: ["D(100,100)"]
          numConcurrency: [1]
          outputLocation: {storageUri: "gs://results/chat"}
        ---
        apiVersion: ome.io/v1beta1
        kind: BenchmarkJob
        metadata: {name: by-pool, namespace: team}
        spec:
          endpoint: {inferencePool: {name: chat}}
          task: text-to-text
          outputLocation: {storageUri: "pvc://results/chat"}
        ---
        apiVersion: ome.io/v1beta1
        kind: BenchmarkJob
        metadata: {name: bad-output, namespace: team}
        spec:
          endpoint: {endpoint: {url: "http://chat.team.svc:8080", apiFormat: openai, modelName: chat}}
          task: text-to-text
          outputLocation: {storageUri: "pvc://other:results/chat"}
        """, messages);
    assertThat(messages).isEmpty();
    ManifestRenderer.Result result = ManifestRenderer.render(manifests, OperatorSettings.defaults(), "team");
    assertThat(result.objects()).extracting(HasMetadata::getKind, o -> o.getMetadata().getName())
        .containsExactly(org.assertj.core.groups.Tuple.tuple("Job", "by-url"));
    var job = (io.fabric8.kubernetes.api.model.batch.v1.Job) result.objects().getFirst();
    assertThat(job.getMetadata().getOwnerReferences()).isNullOrEmpty();
    var pod = job.getSpec().getTemplate().getSpec();
    var bench = java.util.stream.Stream.concat(pod.getContainers().stream(), pod.getInitContainers() == null
        ? java.util.stream.Stream.empty() : pod.getInitContainers().stream())
        .filter(c -> c.getName().equals("benchmark")).findFirst().orElseThrow();
    assertThat(String.join(" ", bench.getArgs() == null ? java.util.List.of() : bench.getArgs()) + " "
        + String.join(" ", bench.getCommand() == null ? java.util.List.of() : bench.getCommand()))
        .contains("--api-base http://chat.team.svc:8080", "--storage-provider gcp", "--storage-bucket results");
    assertThat(result.messages()).containsExactly(
        "BenchmarkJob team/by-url: Job by-url runs genai-bench against http://chat.team.svc:8080 (model chat)",
        "BenchmarkJob team/by-pool: no Job shown: the operator makes it on the cluster once InferencePool "
            + "team/chat serves (its URL and model name come from the cluster, which render does not read)",
        "BenchmarkJob team/bad-output: error: outputLocation pvc://other:results/chat names a claim in namespace "
            + "other: the claim must be in the benchmark's namespace team");
    assertThat(result.failed()).isTrue();
  }
}
