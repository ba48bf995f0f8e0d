package dev.modelplane.cli;

import dev.modelplane.controlplane.FakeNode;
import dev.modelplane.controlplane.UpstreamCrds;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import dev.modelplane.operator.render.ManifestRenderer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A fleet of top-level services of every API family the operator serves, in one namespace: LLMKube Model +
 * InferenceServices (vLLM and llama.cpp, CPU only), OME ClusterBaseModel + ClusterServingRuntime and BaseModel +
 * ServingRuntime with InferenceServices on either, and OtterScale ModelServices (on kwok GPUs). No image is ever
 * pulled (kwok runs the pods). The manifests come in batches, so a test can apply them while it injects faults; what
 * the operator should make of them is what {@code modelplane render} makes of them ({@link ChaosCheck}).
 *
 * @param namespace where every namespaced object goes
 * @param suffix makes the cluster-scoped names unique on a shared control plane
 * @param llmkube LLMKube InferenceServices
 * @param ome OME InferenceServices
 * @param modelServices OtterScale ModelServices
 */
record ChaosFleet(String namespace, String suffix, int llmkube, int ome, int modelServices) {
  /** The optional kinds a ModelService owns (routes, Istio, monitors): installed, so all of them are reconciled. */
  static final List<UpstreamCrds> OPTIONAL_KINDS = List.of(UpstreamCrds.GATEWAY_API, UpstreamCrds.ISTIO,
      UpstreamCrds.PROMETHEUS_OPERATOR);
  /** Pods per kwok node (the kubelet default). */
  private static final int PODS_PER_NODE = 110;

  /** 200 services: 80 LLMKube, 60 OME, 60 ModelServices. */
  static ChaosFleet of200(String namespace, String suffix) {
    return of(200, namespace, suffix);
  }

  /** {@code services} services in the proportions of {@link #of200}. */
  static ChaosFleet of(int services, String namespace, String suffix) {
    int llmkube = services * 2 / 5;
    int ome = services * 3 / 10;
    return new ChaosFleet(namespace, suffix, llmkube, ome, services - llmkube - ome);
  }

  /** The fleet size of the chaos tests: 200, or the system property {@code chaos.services}. */
  static int size() {
    return Integer.getInteger("chaos.services", 200);
  }

  int services() {
    return llmkube + ome + modelServices;
  }

  /** Serving pods once converged: one per LLMKube and OME service, two (decode, endpoint picker) per ModelService. */
  int pods() {
    return llmkube + ome + 2 * modelServices;
  }

  String clusterModel() {
    return "chaos-cbm-" + suffix;
  }

  String clusterRuntime() {
    return "chaos-csr-" + suffix;
  }

  /** kwok GPU nodes with room for every pod, labelled as if the model agents had the OME models Ready. */
  List<FakeNode> nodes() {
    List<FakeNode> nodes = new ArrayList<>();
    int count = (pods() + PODS_PER_NODE - 1) / PODS_PER_NODE + 1;
    for (int i = 0; i < count; i++) {
      Map<String, String> labels = new LinkedHashMap<>();
      labels.put(new BaseModelKey(null, clusterModel()).labelKey(), "Ready");
      labels.put(new BaseModelKey(namespace, "chaos-bm").labelKey(), "Ready");
      labels.put("nvidia.com/gpu.present", "true");
      nodes.add(new FakeNode("chaos-" + suffix + "-" + i, "1000", "4Ti", 200, "nvidia.com/gpu", labels, Map.of()));
    }
    return nodes;
  }

  /** The settings both the operator and the expectation use: no cache claim (kwok has no storage). */
  static OperatorSettings settings() {
    return OperatorSettings.defaults().withModelCache(OperatorSettings.ModelCacheSettings.disabled());
  }

  /** The manifests as YAML, split into {@code count} batches; the first also holds the models and runtimes. */
  List<String> batches(int count) {
    List<StringBuilder> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(new StringBuilder());
    }
    out.getFirst().append(shared());
    for (int i = 0; i < llmkube; i++) {
      out.get(i % count).append(llmkubeService(i));
    }
    for (int i = 0; i < ome; i++) {
      out.get(i % count).append(omeService(i));
    }
    for (int i = 0; i < modelServices; i++) {
      out.get(i % count).append(modelService(i));
    }
    return out.stream().map(StringBuilder::toString).toList();
  }

  /** Every manifest, in one YAML stream. */
  String all() {
    return String.join("", batches(1));
  }

  /** What {@code modelplane render} makes of the fleet: the objects the operator owns, with the fleet's settings. */
  List<HasMetadata> rendered() {
    List<String> messages = new ArrayList<>();
    ManifestRenderer.Result result = ManifestRenderer.render(ManifestRenderer.parse(all(), messages), settings(),
        namespace);
    if (result.failed()) {
      throw new IllegalStateException("the fleet does not render: " + result.messages());
    }
    return result.objects();
  }

  /** Applies one batch server-side, as {@code kubectl apply --server-side} would. */
  static void apply(KubernetesClient client, String yaml) {
    for (HasMetadata object : client.load(new java.io.ByteArrayInputStream(
        yaml.getBytes(java.nio.charset.StandardCharsets.UTF_8))).items()) {
      client.resource(object).fieldManager("chaos-test").forceConflicts().serverSideApply();
    }
  }

  private String shared() {
    return """
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: Model
        metadata: {name: chaos-llm, namespace: %1$s}
        spec: {source: test-org/chaos-llm}
        ---
        apiVersion: ome.io/v1beta1
        kind: ClusterBaseModel
        metadata: {name: %2$s}
        spec:
          modelFormat: {name: chaos-%3$s, version: "1.0.0"}
          modelFramework: {name: transformers, version: "4.43.0"}
          modelArchitecture: LlamaForCausalLM
          modelParameterSize: 1B
          storage: {storageUri: "hf://test-org/chaos-cluster", path: /raid/models/chaos-cluster}
        ---
        apiVersion: ome.io/v1beta1
        kind: ClusterServingRuntime
        metadata: {name: %4$s}
        spec:
          supportedModelFormats:
            - name: chaos-%3$s
              modelFormat: {name: chaos-%3$s, version: "1.0.0"}
              modelFramework: {name: transformers, version: "4.43.0"}
              modelArchitecture: LlamaForCausalLM
              autoSelect: true
              priority: 1
          modelSizeRange: {min: 100M, max: 10B}
        %5$s
        ---
        apiVersion: ome.io/v1beta1
        kind: BaseModel
        metadata: {name: chaos-bm, namespace: %1$s}
        spec:
          modelFormat: {name: chaos-ns-%3$s, version: "1.0.0"}
          modelFramework: {name: transformers, version: "4.43.0"}
          modelArchitecture: LlamaForCausalLM
          modelParameterSize: 1B
          storage: {storageUri: "hf://test-org/chaos-namespaced"}
        ---
        apiVersion: ome.io/v1beta1
        kind: ServingRuntime
        metadata: {name: chaos-sr, namespace: %1$s}
        spec:
          supportedModelFormats:
            - name: chaos-ns-%3$s
              modelFormat: {name: chaos-ns-%3$s, version: "1.0.0"}
              modelFramework: {name: transformers, version: "4.43.0"}
              modelArchitecture: LlamaForCausalLM
              autoSelect: true
              priority: 1
          modelSizeRange: {min: 100M, max: 10B}
        %5$s
        ---
        """.formatted(namespace, clusterModel(), suffix, clusterRuntime(), ENGINE.indent(2).stripTrailing());
  }

  /** The runtimes' engine: CPU only, never pulled (kwok runs the pods). */
  private static final String ENGINE = """
      engineConfig:
        runner:
          name: ome-container
          image: docker.io/vllm/vllm-openai:v0.25.1
          args: [--model=$(MODEL_PATH), --port=8080]
          ports: [{containerPort: 8080, name: http1}]
          resources:
            requests: {cpu: 100m, memory: 256Mi}
      """;

  private String llmkubeService(int i) {
    String runtime = i % 2 == 0 ? "vllm" : "llamacpp";
    return """
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: InferenceService
        metadata: {name: lk-%03d, namespace: %s}
        spec:
          modelRef: chaos-llm
          runtime: %s
          replicas: 1
          skipModelInit: %s
        ---
        """.formatted(i, namespace, runtime, i % 3 == 0);
  }

  private String omeService(int i) {
    String model = i % 2 == 0 ? "{name: " + clusterModel() + "}" : "{name: chaos-bm, kind: BaseModel}";
    return """
        apiVersion: ome.io/v1beta1
        kind: InferenceService
        metadata: {name: ome-%03d, namespace: %s}
        spec:
          model: %s
          engine: {minReplicas: 1, maxReplicas: 1}
        ---
        """.formatted(i, namespace, model);
  }

  private String modelService(int i) {
    return """
        apiVersion: model.otterscale.io/v1alpha1
        kind: ModelService
        metadata: {name: ms-%03d, namespace: %s}
        spec:
          model: {name: test-org/chaos-ms, image: registry.example/models/chaos:1}
          engine: {image: vllm/vllm-openai:v0.11.0}
          accelerator: {type: nvidia}
          decode: {replicas: 1}
        ---
        """.formatted(i, namespace);
  }
}
