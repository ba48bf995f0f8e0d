package dev.modelplane.operator.ome.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.BaseModelSpec;
import dev.modelplane.api.ome.v1beta1.InferencePoolEndpoint;
import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.InferenceServiceReference;
import dev.modelplane.api.ome.v1beta1.UrlEndpoint;
import dev.modelplane.api.ome.v1beta1.ApiFormat;
import dev.modelplane.operator.ome.basemodel.BaseModelKey;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

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

  private static Function<Map<String, String>, List<Pod>> pods(Map<String, String> wanted, Pod... pods) {
    return labels -> labels.equals(wanted) ? List.of(pods) : List.of();
  }

  @Test
  void aReadyOmeServiceGivesItsUrlsOriginItsProtocolAndItsModelDirectory() {
    var resolution = EndpointResolver.ome(OME, omeService("""
        status:
          url: http://llama.serving.svc.cluster.local/v1
          conditions: [{type: Ready, status: "True"}]
        """), name -> name.equals("llama-3-1-8b") ? new EndpointResolver.Model(new BaseModelKey(null, name), MODEL)
        : null, pods(Map.of("ome.io/inferenceservice", "llama", "component", "engine"),
        pod("10.0.0.7", true, 8080), pod("10.0.0.8", false, 8080)));
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
  void anOmeServiceThatIsNotReadyOrHasNoUrlOrModelIsWaitedFor() {
    Function<String, EndpointResolver.Model> none = name -> null;
    assertThat(EndpointResolver.ome(OME, null, none, l -> List.of()).waiting())
        .isEqualTo("InferenceService serving/llama does not exist");
    assertThat(EndpointResolver.ome(OME, omeService("""
        status: {conditions: [{type: Ready, status: "False"}]}
        """), none, l -> List.of()).waiting()).isEqualTo("InferenceService serving/llama is not Ready");
    assertThat(EndpointResolver.ome(OME, omeService("""
        status: {conditions: [{type: Ready, status: "True"}]}
        """), none, l -> List.of()).waiting()).isEqualTo("InferenceService serving/llama has no URL in its status");
    assertThat(EndpointResolver.ome(OME, omeService("""
        status: {url: "http://llama", conditions: [{type: Ready, status: "True"}]}
        """), none, l -> List.of()).waiting()).isEqualTo("InferenceService serving/llama serves model llama-3-1-8b, "
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
