package dev.modelplane.operator.it;

import static dev.modelplane.operator.it.OperatorHarness.isvc;
import static dev.modelplane.operator.it.OperatorHarness.model;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.InferenceServicePhase;
import dev.modelplane.api.ome.v1beta1.BenchmarkJob;
import dev.modelplane.api.ome.v1beta1.BenchmarkJobStatus;
import dev.modelplane.api.ome.v1beta1.BenchmarkState;
import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterServingRuntime;
import dev.modelplane.api.otterscale.v1alpha1.ModelService;
import dev.modelplane.api.otterscale.v1alpha1.ModelServicePhase;
import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.controlplane.Edits;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The operator's workload policy on a real kube-apiserver: a resource asking for the node in an unlabelled namespace
 * gets a {@code PolicyRefused} condition naming the field and a Warning Event, and no workload; a workload applied
 * before the spec asked for it is deleted; in a namespace labelled {@code modelplane.dev/workload-policy=privileged}
 * the same spec is served. LLMKube and OME services, BenchmarkJobs and ModelServices each show the refusal in their
 * own status.
 */
@WithControlPlane({ControlPlane.Component.CONTROLLER_MANAGER})
class WorkloadPolicyIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  private static OperatorHarness harness;
  private final List<HasMetadata> clusterScoped = new ArrayList<>();
  private KubernetesClient admin;

  @BeforeAll
  static void startOperator(ControlPlane controlPlane) {
    harness = OperatorHarness.start(controlPlane);
  }

  @AfterAll
  static void stopOperator() {
    if (harness != null) {
      harness.close();
    }
  }

  @AfterEach
  void removeClusterScoped() {
    clusterScoped.forEach(o -> admin.resource(o).delete());
  }

  private static void editSpec(KubernetesClient client, String name, Consumer<ObjectNode> change) {
    Edits.onLatest(client.resources(InferenceService.class).withName(name), i -> {
      ObjectNode tree = JSON.convertValue(i, ObjectNode.class);
      change.accept((ObjectNode) tree.get("spec"));
      return JSON.convertValue(tree, InferenceService.class);
    });
  }

  private static Condition condition(List<Condition> conditions, String type) {
    assertThat(conditions).as("conditions").isNotNull();
    return conditions.stream().filter(c -> c.getType().equals(type)).findFirst()
        .orElseThrow(() -> new AssertionError("no " + type + " in " + conditions));
  }

  private static void assertWarning(KubernetesClient client, String name, String field) {
    assertThat(client.v1().events().list().getItems()).anySatisfy(e -> {
      assertThat(e.getInvolvedObject().getName()).isEqualTo(name);
      assertThat(e.getType()).isEqualTo("Warning");
      assertThat(e.getReason()).isEqualTo("PolicyRefused");
      assertThat(e.getMessage()).contains(field);
    });
  }

  @Test
  void anLlmkubeServiceAskingForTheNodeIsRefusedItsDeploymentRemovedAndServedOnceTheNamespaceIsLabelled(
      KubeTest test) {
    admin = test.controlPlane().client();
    KubernetesClient client = test.client();
    client.resource(model("llama", "source: test-org/llama-gguf")).create();
    client.resource(isvc("chat", """
        modelRef: llama
        runtime: vllm
        securityContext: {privileged: true}
        """)).create();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      InferenceService isvc = client.resources(InferenceService.class).withName("chat").get();
      assertThat(isvc.getStatus()).as("status").isNotNull();
      assertThat(isvc.getStatus().phase()).isEqualTo(InferenceServicePhase.FAILED);
      Condition degraded = condition(isvc.getStatus().conditions(), "Degraded");
      assertThat(degraded.getReason()).isEqualTo("PolicyRefused");
      assertThat(degraded.getMessage()).contains("spec.securityContext.privileged: a privileged container is "
          + "refused (label the namespace modelplane.dev/workload-policy=privileged to allow it)");
      assertWarning(client, "chat", "spec.securityContext.privileged");
    });
    assertThat(client.apps().deployments().withName("chat").get()).isNull();
    assertThat(client.services().withName("chat").get()).isNull();

    // Without the field the service is served; asking for a hostPath afterwards takes its Deployment away.
    editSpec(client, "chat", spec -> spec.remove("securityContext"));
    await().atMost(TIMEOUT).until(() -> client.apps().deployments().withName("chat").get() != null);
    editSpec(client, "chat", spec -> spec.putArray("extraVolumes").addObject().put("name", "host")
        .putObject("hostPath").put("path", "/"));
    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(client.apps().deployments().withName("chat").get()).isNull();
      InferenceService isvc = client.resources(InferenceService.class).withName("chat").get();
      assertThat(condition(isvc.getStatus().conditions(), "Degraded").getMessage())
          .contains("spec.extraVolumes[host].hostPath");
    });

    // A cluster administrator labels the namespace: the same spec is served (looked at again on the next change).
    admin.namespaces().withName(test.namespace()).edit(n -> {
      n.getMetadata().getLabels().put("modelplane.dev/workload-policy", "privileged");
      return n;
    });
    editSpec(client, "chat", spec -> spec.put("replicas", 2));
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Deployment d = client.apps().deployments().withName("chat").get();
      assertThat(d).isNotNull();
      assertThat(d.getSpec().getTemplate().getSpec().getVolumes()).anySatisfy(v -> {
        assertThat(v.getName()).isEqualTo("host");
        assertThat(v.getHostPath().getPath()).isEqualTo("/");
      });
    });
  }

  @Test
  void anOmeServiceWithHostNetworkIsRefusedAndItsNodeModelDirectoryIsNot(KubeTest test) {
    admin = test.controlPlane().client();
    KubernetesClient client = test.client();
    String format = "policy-" + test.namespace().substring(test.namespace().lastIndexOf('-') + 1);
    clusterScoped.add(admin.resource(Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: ClusterBaseModel
        metadata: {name: %s}
        spec:
          modelFormat: {name: %s, version: "1.0.0"}
          modelFramework: {name: transformers, version: "4.43.0"}
          modelArchitecture: LlamaForCausalLM
          modelParameterSize: 8B
          storage: {storageUri: "hf://meta-llama/Llama-3.1-8B-Instruct", path: /raid/models/%s}
        """.formatted(format, format, format), ClusterBaseModel.class)).create());
    clusterScoped.add(admin.resource(Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: ClusterServingRuntime
        metadata: {name: %s}
        spec:
          supportedModelFormats:
            - name: %s
              modelFormat: {name: %s, version: "1.0.0"}
              modelFramework: {name: transformers, version: "4.43.0"}
              modelArchitecture: LlamaForCausalLM
              autoSelect: true
          engineConfig:
            runner:
              name: ome-container
              image: docker.io/vllm/vllm-openai:v0.25.1
              args: [--model=$(MODEL_PATH), --port=8080]
              ports: [{containerPort: 8080}]
        """.formatted(format, format, format), ClusterServingRuntime.class)).create());
    String isvc = """
        apiVersion: ome.io/v1beta1
        kind: InferenceService
        metadata: {name: %s}
        spec:
          model: {name: %s}
          engine: {minReplicas: 1%s}
        """;
    client.resource(Serialization.unmarshal(isvc.formatted("plain", format, ""),
        dev.modelplane.api.ome.v1beta1.InferenceService.class)).create();
    client.resource(Serialization.unmarshal(isvc.formatted("host", format, ", hostNetwork: true"),
        dev.modelplane.api.ome.v1beta1.InferenceService.class)).create();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      var host = client.resources(dev.modelplane.api.ome.v1beta1.InferenceService.class).withName("host").get();
      assertThat(host.getStatus()).as("status").isNotNull();
      Condition ready = condition(host.getStatus().conditions(), "Ready");
      assertThat(ready.getStatus()).isEqualTo("False");
      assertThat(ready.getReason()).isEqualTo("PolicyRefused");
      assertThat(ready.getMessage()).startsWith("spec.engine.hostNetwork: the node's network namespace is refused");
      assertWarning(client, "host", "spec.engine.hostNetwork");
      // The model on the node's disk is mounted by the operator itself: that hostPath passes.
      Deployment plain = client.apps().deployments().withName("plain-engine").get();
      assertThat(plain).isNotNull();
      assertThat(plain.getSpec().getTemplate().getSpec().getVolumes()).anySatisfy(v -> assertThat(v.getHostPath())
          .isNotNull());
    });
    assertThat(client.apps().deployments().withName("host-engine").get()).isNull();
  }

  @Test
  void aBenchmarkOnANodeDirectoryAndAModelServiceUnconfinedByAnnotationAreRefused(KubeTest test) {
    admin = test.controlPlane().client();
    KubernetesClient client = test.client();
    client.resource(Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: BenchmarkJob
        metadata: {name: local}
        spec:
          endpoint: {endpoint: {url: "http://llm.test:8000", apiFormat: openai, modelName: tiny}}
          task: text-to-text
          maxTimePerIteration: 1
          maxRequestsPerIteration: 20
          outputLocation: {storageUri: "pvc://results/runs"}
          dataset: {storageUri: "local:///etc"}
        """, BenchmarkJob.class)).create();
    client.resource(Serialization.unmarshal("""
        apiVersion: model.otterscale.io/v1alpha1
        kind: ModelService
        metadata: {name: qwen}
        spec:
          model: {name: Qwen/Qwen3-0.6B, image: registry.example/models/qwen3:0.6b}
          engine: {image: vllm/vllm-openai:v0.11.0}
          accelerator: {type: nvidia}
          decode: {annotations: {container.apparmor.security.beta.kubernetes.io/vllm: unconfined}}
        """, ModelService.class)).create();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      BenchmarkJobStatus status = client.resources(BenchmarkJob.class).withName("local").get().getStatus();
      assertThat(status).as("status").isNotNull();
      assertThat(status.state()).isEqualTo(BenchmarkState.Failed);
      assertThat(status.failureMessage()).startsWith("PolicyRefused: spec.dataset.storageUri: a hostPath volume "
          + "(/etc) is refused");
      assertWarning(client, "local", "spec.dataset.storageUri");
      ModelService ms = client.resources(ModelService.class).withName("qwen").get();
      assertThat(ms.getStatus()).as("status").isNotNull();
      assertThat(ms.getStatus().phase()).isEqualTo(ModelServicePhase.Failed);
      Condition ready = condition(ms.getStatus().conditions(), "Ready");
      assertThat(ready.getReason()).isEqualTo("PolicyRefused");
      assertThat(ready.getMessage()).startsWith(
          "spec.decode.annotations[container.apparmor.security.beta.kubernetes.io/vllm]: an unconfined AppArmor");
      assertWarning(client, "qwen", "spec.decode.annotations");
    });
    assertThat(client.batch().v1().jobs().withName("local").get()).isNull();
    assertThat(client.apps().deployments().list().getItems()).isEmpty();

    // The platform team labels the namespace: the refused benchmark is looked at again and runs, without a change.
    admin.namespaces().withName(test.namespace()).edit(n -> {
      n.getMetadata().getLabels().put("modelplane.dev/workload-policy", "privileged");
      return n;
    });
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(client.batch().v1().jobs().withName("local").get())
        .as("the benchmark's Job once the namespace is labelled").isNotNull());
  }
}
