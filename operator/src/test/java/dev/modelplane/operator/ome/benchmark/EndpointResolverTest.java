package dev.modelplane.operator.ome.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.ApiFormat;
import dev.modelplane.api.ome.v1beta1.BaseModelSpec;
import dev.modelplane.api.ome.v1beta1.EndpointSpec;
import dev.modelplane.api.ome.v1beta1.InferencePoolEndpoint;
import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.InferenceServiceReference;
import dev.modelplane.api.ome.v1beta1.UrlEndpoint;
import dev.modelplane.operator.BenchmarkSettings;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import dev.modelplane.operator.ome.storage.ModelPaths;
import dev.modelplane.operator.ome.storage.ModelStorageSettings;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each endpoint kind: when it is ready, the URL, backend and model probes it gives; otherwise what is awaited. */
class EndpointResolverTest {
  private static final InferenceServiceReference OME = new InferenceServiceReference("llama", "serving");
  private static final InferenceServiceReference LLMKUBE = new InferenceServiceReference("chat", "serving",
      InferenceServiceReference.LLMKUBE);
  private static final InferencePoolEndpoint POOL = new InferencePoolEndpoint("llama-pool", "serving", null);

  private static Pod pod(String ip, boolean ready, int port) {
    return Serialization.unmarshal("""
        apiVersion: v1
        kind: Pod
        metadata: {name: p-%s}
        spec: {containers: [{name: engine, image: vllm, ports: [{containerPort: %d}]}]}
        status:
          podIP: %s
          conditions: [{type: Ready, status: "%s"}]
        """.formatted(ip.replace('.', '-'), port, ip, ready ? "True" : "False"), Pod.class);
  }

  private static InferenceService omeService(String status) {
    return Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: InferenceService
        metadata: {name: llama, namespace: serving}
        spec:
          model: {name: llama-3-1-8b}
          engine:
            runner: {name: ome-container, env: [{name: PROTOCOL_VERSION, value: openAI}]}
        """ + status, InferenceService.class);
  }

  private static final BaseModelSpec MODEL = Serialization.unmarshal("""
      storage: {storageUri: "hf://meta-llama/Llama-3.1-8B", path: /raid/models/llama, nodeSelector: {gpu: h100}}
      """, BaseModelSpec.class);
  /** A BaseModel of namespace serving in its own directory. */
  private static final BaseModelSpec SERVING_MODEL = Serialization.unmarshal("""
      storage: {storageUri: "hf://meta-llama/Llama-3.1-8B", path: /raid/models/serving/llama}
      """, BaseModelSpec.class);
  private static final ModelPaths PATHS = ModelStorageSettings.defaults().paths();
  /** The directory rules with no other model around. */
  private static final Function<EndpointResolver.Model, ModelPaths.Decision> DIRS = m -> PATHS.own(
      new ModelPaths.Claimant(m.key(), m.spec().storage(), null));

  private static Function<Map<String, String>, List<Pod>> pods(Map<String, String> wanted, Pod... pods) {
    return labels -> labels.equals(wanted) ? List.of(pods) : List.of();
  }

  @Test
  void aReadyOmeServiceGivesItsUrlsOriginItsProtocolAndItsModelDirectory() {
    var resolution = EndpointResolver.ome("serving", OME, omeService("""
        status:
          url: http://llama.serving.svc.cluster.local/v1
          conditions: [{type: Ready, status: "True"}]
        """), name -> name.equals("llama-3-1-8b") ? new EndpointResolver.Model(new BaseModelKey(null, name), MODEL)
        : null, pods(Map.of("ome.io/inferenceservice", "llama", "component", "engine"),
        pod("10.0.0.7", true, 8080), pod("10.0.0.8", false, 8080)), DIRS);
    assertThat(resolution.waiting()).isNull();
    BenchmarkTarget t = resolution.target();
    assertThat(t.apiBase()).isEqualTo("http://llama.serving.svc.cluster.local");
    assertThat(t.backend()).isEqualTo("openai");
    assertThat(t.apiKey()).isEqualTo("none");
    assertThat(t.modelName()).isNull();
    assertThat(t.tokenizer().path()).isEqualTo("/raid/models/llama");
    assertThat(t.tokenizer().nodeSelector()).containsEntry("gpu", "h100")
        .containsEntry("models.ome.io/clusterbasemodel.llama-3-1-8b", "Ready");
    assertThat(t.modelProbes()).containsExactly("http://10.0.0.7:8080", "http://llama.serving.svc.cluster.local");
  }

  @Test
  void aServiceInAnotherNamespaceNeverMountsThatNamespacesModelDirectory() {
    var isvc = omeService("""
        status:
          url: http://llama.serving.svc.cluster.local
          conditions: [{type: Ready, status: "True"}]
        """);
    Function<String, EndpointResolver.Model> namespaced = name -> new EndpointResolver.Model(
        new BaseModelKey("serving", name), SERVING_MODEL);
    assertThat(EndpointResolver.ome("bench", OME, isvc, namespaced, l -> List.of(), DIRS).target().tokenizer())
        .as("the BaseModel of serving is not the benchmark's: the model name is the tokenizer").isNull();
    assertThat(EndpointResolver.ome("serving", OME, isvc, namespaced, l -> List.of(), DIRS).target().tokenizer().path())
        .isEqualTo("/raid/models/serving/llama");
    Function<String, EndpointResolver.Model> cluster = name -> new EndpointResolver.Model(
        new BaseModelKey(null, name), MODEL);
    assertThat(EndpointResolver.ome("bench", OME, isvc, cluster, l -> List.of(), DIRS).target().tokenizer().path())
        .as("a ClusterBaseModel belongs to no namespace").isEqualTo("/raid/models/llama");
  }

  @Test
  void aModelDirectoryTheDirectoryRulesRefuseIsNeverMountedAndADerivedOneIs() {
    var isvc = omeService("""
        status:
          url: http://llama.serving.svc.cluster.local
          conditions: [{type: Ready, status: "True"}]
        """);
    Function<String, EndpointResolver.Model> outside = name -> new EndpointResolver.Model(
        new BaseModelKey("serving", name), MODEL);
    assertThat(EndpointResolver.ome("serving", OME, isvc, outside, l -> List.of(), DIRS).target().tokenizer())
        .as("/raid/models/llama is outside serving's directory: the model name is the tokenizer").isNull();
    BaseModelSpec derived = Serialization.unmarshal("""
        storage: {storageUri: "hf://meta-llama/Llama-3.1-8B"}
        """, BaseModelSpec.class);
    Function<String, EndpointResolver.Model> noPath = name -> new EndpointResolver.Model(
        new BaseModelKey("serving", name), derived);
    assertThat(EndpointResolver.ome("serving", OME, isvc, noPath, l -> List.of(), DIRS).target().tokenizer().path())
        .as("no storage.path: the directory the agent downloads into").isEqualTo("/raid/models/serving/llama-3-1-8b");
  }

  @Test
  void aModelDirectoryOverlappingAnotherModelsIsNeverMounted() {
    var isvc = omeService("""
        status:
          url: http://llama.serving.svc.cluster.local
          conditions: [{type: Ready, status: "True"}]
        """);
    Function<String, EndpointResolver.Model> mine = name -> new EndpointResolver.Model(
        new BaseModelKey("serving", name), SERVING_MODEL);
    ModelPaths.Claimant older = new ModelPaths.Claimant(new BaseModelKey("serving", "older"), SERVING_MODEL.storage(),
        java.time.Instant.parse("2026-01-01T00:00:00Z"));
    Function<EndpointResolver.Model, ModelPaths.Decision> decided = m -> PATHS.decide(
        new ModelPaths.Claimant(m.key(), m.spec().storage(), null), List.of(older));
    assertThat(EndpointResolver.ome("serving", OME, isvc, mine, l -> List.of(), decided).target().tokenizer())
        .as("the directory is an older model's: the model name is the tokenizer").isNull();
  }

  static Stream<Arguments> crossNamespaceTargets() {
    return Stream.of(
        Arguments.of(new EndpointSpec(OME, null),
            "spec.endpoint.inferenceService.namespace", "InferenceService serving/llama (ome.io)"),
        Arguments.of(new EndpointSpec(LLMKUBE, null),
            "spec.endpoint.inferenceService.namespace", "InferenceService serving/chat (inference.llmkube.dev)"),
        Arguments.of(new EndpointSpec(null, null, POOL),
            "spec.endpoint.inferencePool.namespace", "InferencePool serving/llama-pool (inference.networking.k8s.io)"));
  }

  /** The resolver has no client here: a refused target is refused before anything of its namespace is read. */
  @ParameterizedTest(name = "{1}")
  @MethodSource("crossNamespaceTargets")
  void aTargetInAnotherNamespaceWithoutAGrantIsRefusedBeforeAnythingIsRead(EndpointSpec endpoint, String field,
      String what) {
    var resolver = new EndpointResolver(null, BenchmarkSettings.defaults(), ns -> List.of(), PATHS);
    var resolution = resolver.resolve("bench", endpoint);
    assertThat(resolution.target()).isNull();
    assertThat(resolution.refused().field()).isEqualTo(field);
    assertThat(resolution.refused().message()).startsWith(what + " is in another namespace than this "
        + "BenchmarkJob (bench), and no ReferenceGrant in serving allows it");
    var noCrd = new EndpointResolver(null, BenchmarkSettings.defaults(), ns -> null, PATHS).resolve("bench", endpoint);
    assertThat(noCrd.refused().message()).endsWith("the ReferenceGrant CRD is not installed");
  }

  @Test
  void anOmeServiceThatIsNotReadyOrHasNoUrlOrModelIsWaitedFor() {
    Function<String, EndpointResolver.Model> none = name -> null;
    assertThat(EndpointResolver.ome("serving", OME, null, none, l -> List.of(), DIRS).waiting())
        .isEqualTo("InferenceService serving/llama does not exist");
    assertThat(EndpointResolver.ome("serving", OME, omeService("""
        status: {conditions: [{type: Ready, status: "False"}]}
        """), none, l -> List.of(), DIRS).waiting()).isEqualTo("InferenceService serving/llama is not Ready");
    assertThat(EndpointResolver.ome("serving", OME, omeService("""
        status: {conditions: [{type: Ready, status: "True"}]}
        """), none, l -> List.of(), DIRS).waiting()).isEqualTo("InferenceService serving/llama has no URL in its status");
    assertThat(EndpointResolver.ome("serving", OME, omeService("""
        status: {url: "http://llama", conditions: [{type: Ready, status: "True"}]}
        """), none, l -> List.of(), DIRS).waiting()).isEqualTo("InferenceService serving/llama serves model llama-3-1-8b, "
        + "which exists neither as a BaseModel in serving nor as a ClusterBaseModel");
  }

  @Test
  void anLlmkubeServiceIsReadyInPhaseReadyWithItsEndpointAndSelectedPods() {
    var isvc = Serialization.unmarshal("""
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: InferenceService
        metadata: {name: chat, namespace: serving}
        spec: {modelRef: tiny}
        status:
          phase: Ready
          endpoint: http://chat.serving.svc.cluster.local:8080/v1/chat/completions
          selector: app=chat,inference.llmkube.dev/service=chat
        """, dev.modelplane.api.llmkube.v1alpha1.InferenceService.class);
    var resolution = EndpointResolver.llmkube(LLMKUBE, isvc,
        pods(Map.of("app", "chat", "inference.llmkube.dev/service", "chat"), pod("10.1.0.2", true, 8080)));
    assertThat(resolution.target().apiBase()).isEqualTo("http://chat.serving.svc.cluster.local:8080");
    assertThat(resolution.target().backend()).isEqualTo("openai");
    assertThat(resolution.target().tokenizer()).isNull();
    assertThat(resolution.target().modelProbes()).containsExactly("http://10.1.0.2:8080",
        "http://chat.serving.svc.cluster.local:8080");

    var creating = Serialization.unmarshal("""
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: InferenceService
        metadata: {name: chat, namespace: serving}
        spec: {modelRef: tiny}
        status: {phase: Creating}
        """, dev.modelplane.api.llmkube.v1alpha1.InferenceService.class);
    assertThat(EndpointResolver.llmkube(LLMKUBE, creating, l -> List.of()).waiting())
        .isEqualTo("InferenceService serving/chat (inference.llmkube.dev) is Creating, not Ready");
    assertThat(EndpointResolver.llmkube(LLMKUBE, null, l -> List.of()).waiting())
        .isEqualTo("InferenceService serving/chat (inference.llmkube.dev) does not exist");
  }

  private static GenericKubernetesResource pool() {
    return Serialization.unmarshal("""
        apiVersion: inference.networking.k8s.io/v1
        kind: InferencePool
        metadata: {name: llama-pool, namespace: serving}
        spec:
          selector: {matchLabels: {app: llama}}
          targetPorts: [{number: 8000}]
          endpointPickerRef: {name: epp, port: {number: 9002}}
        """, GenericKubernetesResource.class);
  }

  @Test
  void anInferencePoolWithAReadyPodIsReachedThroughTheRoutersPoolPrefix() {
    var resolution = EndpointResolver.pool(POOL, pool(), pods(Map.of("app", "llama"), pod("10.2.0.5", true, 1234)),
        "http://modelplane-router.modelplane-system.svc:8080");
    assertThat(resolution.target().apiBase())
        .isEqualTo("http://modelplane-router.modelplane-system.svc:8080/inference-pools/serving/llama-pool");
    assertThat(resolution.target().modelProbes()).as("the pool's target port, not the container's")
        .containsExactly("http://10.2.0.5:8000",
            "http://modelplane-router.modelplane-system.svc:8080/inference-pools/serving/llama-pool");
    var own = EndpointResolver.pool(new InferencePoolEndpoint("llama-pool", "serving", "https://router.example/"),
        pool(), pods(Map.of("app", "llama"), pod("10.2.0.5", true, 1234)), "http://default");
    assertThat(own.target().apiBase()).isEqualTo("https://router.example/inference-pools/serving/llama-pool");
  }

  @Test
  void anInferencePoolWithoutAReadyPodIsWaitedFor() {
    assertThat(EndpointResolver.pool(POOL, pool(), pods(Map.of("app", "llama"), pod("10.2.0.5", false, 8000)),
        "http://r").waiting()).isEqualTo("InferencePool serving/llama-pool has no ready endpoint");
    assertThat(EndpointResolver.pool(POOL, null, l -> List.of(), "http://r").waiting())
        .isEqualTo("InferencePool serving/llama-pool does not exist");
  }

  @Test
  void aUrlIsReadyAtOnceWithItsFormatAndModelName() {
    var named = EndpointResolver.url(new UrlEndpoint("https://llm.example.com/", ApiFormat.OCI_COHERE, "cmd-r"));
    assertThat(named.target().apiBase()).isEqualTo("https://llm.example.com");
    assertThat(named.target().backend()).isEqualTo("oci-cohere");
    assertThat(named.target().modelName()).isEqualTo("cmd-r");
    assertThat(named.target().apiKey()).isNull();
    var unnamed = EndpointResolver.url(new UrlEndpoint("http://llm:8000", ApiFormat.OPENAI, null));
    assertThat(unnamed.target().modelName()).isNull();
    assertThat(unnamed.target().modelProbes()).containsExactly("http://llm:8000");
  }
}
