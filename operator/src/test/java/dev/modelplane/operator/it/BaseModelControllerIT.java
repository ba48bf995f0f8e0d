package dev.modelplane.operator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.api.ome.v1beta1.LifeCycleState;
import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.Conditions;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import dev.modelplane.operator.ome.storage.ModelStorageSettings;
import dev.modelplane.operator.ome.storage.NodeReport;
import dev.modelplane.operator.ome.storage.NodeReports;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The BaseModel and ClusterBaseModel controllers on a real apiserver. The model agents are played by the test, which
 * writes their per-node ConfigMap entries as the agents do, so what is checked here is the controller alone:
 * aggregation, metadata fill, node deletion, finalizer, admission.
 */
@WithControlPlane
class BaseModelControllerIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final String AGENTS = "modelplane-agents-it";
  /** How long a deletion waits for the agent of a node that is not Ready. */
  private static final Duration AGENT_TIMEOUT = Duration.ofSeconds(15);
  private static OperatorHarness harness;

  /** Polls until the assertions hold; a status not written yet reads as "not yet". */
  private static org.awaitility.core.ConditionFactory eventually(Duration timeout) {
    return org.awaitility.Awaitility.await().atMost(timeout).ignoreExceptionsInstanceOf(NullPointerException.class);
  }

  @BeforeAll
  static void start(ControlPlane controlPlane) {
    controlPlane.client().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(AGENTS)
        .endMetadata().build()).serverSideApply();
    harness = OperatorHarness.start(controlPlane, OperatorSettings.defaults()
        .withModelCache(OperatorSettings.ModelCacheSettings.disabled()).toBuilder()
        .modelAgentNamespace(AGENTS)
        .modelStorage(new ModelStorageSettings(List.of("/raid/models"), AGENT_TIMEOUT)).build());
  }

  @AfterAll
  static void stop() {
    if (harness != null) {
      harness.close();
    }
  }

  static BaseModel baseModel(String name, String spec) {
    return Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: BaseModel
        metadata: {name: %s}
        spec:
        %s""".formatted(name, indent(spec)), BaseModel.class);
  }

  static ClusterBaseModel clusterBaseModel(String name, String spec) {
    return Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: ClusterBaseModel
        metadata: {name: %s}
        spec:
        %s""".formatted(name, indent(spec)), ClusterBaseModel.class);
  }

  private static String indent(String spec) {
    return spec.stripIndent().lines().map(l -> "  " + l + "\n").reduce("", String::concat);
  }

  /** What an agent on {@code node} writes: its report under the model's key in the node's ConfigMap. */
  static void report(KubernetesClient client, String node, BaseModelKey key, NodeReport report) {
    client.configMaps().inNamespace(AGENTS).resource(new ConfigMapBuilder().withNewMetadata().withName(node)
        .withNamespace(AGENTS).addToLabels(NodeReports.CONFIGMAP_LABEL, NodeReports.CONFIGMAP_LABEL_VALUE)
        .endMetadata().build()).serverSideApply();
    ObjectNode patch = JsonNodeFactory.instance.objectNode();
    patch.putObject("data").put(key.reportKey(), report == null ? null : report.toJson());
    client.configMaps().inNamespace(AGENTS).withName(node).patch(PatchContext.of(PatchType.JSON_MERGE),
        patch.toString());
  }

  static void node(KubernetesClient client, String name) {
    client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).endMetadata().build())
        .serverSideApply();
  }

  static NodeReport state(String status) {
    return new NodeReport("m", status, null, null, null, null, "hf://org/model");
  }

  @Test
  void aggregatesNodeReportsFillsMetadataAndWaitsForAgentsOnDelete(KubeTest kube) {
    KubernetesClient client = kube.client();
    String nodeA = kube.uniqueName("bm-a");
    String nodeB = kube.uniqueName("bm-b");
    node(client, nodeA);
    node(client, nodeB);
    client.resource(baseModel("llama", """
        modelType: user-given
        storage:
          storageUri: hf://org/model
        """)).create();
    BaseModelKey key = new BaseModelKey(kube.namespace(), "llama");
    eventually(TIMEOUT).untilAsserted(() -> {
      BaseModel m = client.resources(BaseModel.class).withName("llama").get();
      assertThat(m.getMetadata().getFinalizers()).containsExactly("basemodels.ome.io/finalizer");
      assertThat(m.getStatus().state()).isEqualTo(LifeCycleState.In_Transit);
      assertThat(Conditions.find(m.getStatus().conditions(), "Ready").getReason()).isEqualTo("WaitingForAgents");
    });

    report(client, nodeA, key, new NodeReport("llama", NodeReport.UPDATING, null,
        new NodeReport.Progress("Downloading", 400L, 100L, 4, 1, 1000L, "2026-01-01T00:00:00Z"), null, null,
        "hf://org/model"));
    report(client, nodeB, key, new NodeReport("llama", NodeReport.FAILED, null, null, "SourceUnreachable",
        "connection refused", "hf://org/model"));
    eventually(TIMEOUT).untilAsserted(() -> {
      BaseModel m = client.resources(BaseModel.class).withName("llama").get();
      assertThat(m.getStatus().state()).isEqualTo(LifeCycleState.Failed);
      assertThat(m.getStatus().nodesFailed()).containsExactly(nodeB);
      assertThat(Conditions.find(m.getStatus().conditions(), "Ready").getMessage())
          .isEqualTo("Downloading on 1 node(s): " + nodeA + " (100 B of 400 B, 25%)");
      assertThat(Conditions.find(m.getStatus().conditions(), "Degraded").getMessage())
          .isEqualTo(nodeB + ": SourceUnreachable: connection refused");
    });

    ObjectNode config = JsonNodeFactory.instance.objectNode();
    config.put("modelType", "llama").put("modelArchitecture", "LlamaForCausalLM").put("maxTokens", 131072)
        .put("modelParameterSize", "8.03B");
    config.putObject("modelFormat").put("name", "safetensors").put("version", "1.0.0");
    config.putArray("modelCapabilities").add("TEXT_TO_TEXT");
    report(client, nodeA, key, new NodeReport("llama", NodeReport.READY, config, null, null, null,
        "hf://org/model"));
    eventually(TIMEOUT).untilAsserted(() -> {
      BaseModel m = client.resources(BaseModel.class).withName("llama").get();
      assertThat(m.getStatus().state()).isEqualTo(LifeCycleState.Ready);
      assertThat(m.getStatus().nodesReady()).containsExactly(nodeA);
      assertThat(m.getSpec().modelArchitecture()).isEqualTo("LlamaForCausalLM");
      assertThat(m.getSpec().modelParameterSize()).isEqualTo("8.03B");
      assertThat(m.getSpec().maxTokens()).isEqualTo(131072);
      assertThat(m.getSpec().modelFormat().name()).isEqualTo("safetensors");
      assertThat(m.getSpec().modelCapabilities()).containsExactly("TEXT_TO_TEXT");
      assertThat(m.getSpec().modelType()).as("a spec value is never overwritten").isEqualTo("user-given");
    });

    // A deleted node's reports stop counting and its ConfigMap goes.
    client.nodes().withName(nodeB).delete();
    eventually(TIMEOUT).untilAsserted(() -> {
      assertThat(client.configMaps().inNamespace(AGENTS).withName(nodeB).get()).isNull();
      BaseModel m = client.resources(BaseModel.class).withName("llama").get();
      assertThat(m.getStatus().nodesFailed()).isEmpty();
      assertThat(Conditions.find(m.getStatus().conditions(), "Degraded").getStatus()).isEqualTo("False");
    });

    // Delete: the finalizer holds the model until the agent on node A has removed its report.
    client.resources(BaseModel.class).withName("llama").delete();
    await().during(Duration.ofSeconds(2)).atMost(TIMEOUT).untilAsserted(() ->
        assertThat(client.resources(BaseModel.class).withName("llama").get()).isNotNull());
    report(client, nodeA, key, null);
    eventually(TIMEOUT).untilAsserted(() ->
        assertThat(client.resources(BaseModel.class).withName("llama").get()).isNull());
    client.nodes().withName(nodeA).delete();
  }

  @Test
  void fineTunedWeightsGetTheirStatusFromTheAgentsAndWaitForThemOnDelete(KubeTest kube) {
    KubernetesClient client = kube.client();
    String node = kube.uniqueName("ftw");
    node(client, node);
    String name = kube.uniqueName("lora");
    client.resource(Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: FineTunedWeight
        metadata: {name: %s}
        spec:
          baseModelRef: {name: llama}
          modelType: LoRA
          hyperParameters: {strategy: dpo}
          storage: {storageUri: "hf://org/adapter"}
        """.formatted(name), dev.modelplane.api.ome.v1beta1.FineTunedWeight.class)).create();
    BaseModelKey key = BaseModelKey.fineTunedWeight(name);
    report(client, node, key, new NodeReport(name, NodeReport.READY, null, null, null, null, "hf://org/adapter"));
    eventually(TIMEOUT).untilAsserted(() -> {
      var w = client.resources(dev.modelplane.api.ome.v1beta1.FineTunedWeight.class).withName(name).get();
      assertThat(w.getMetadata().getFinalizers()).containsExactly("finetunedweights.ome.io/finalizer");
      assertThat(w.getStatus().state()).isEqualTo(LifeCycleState.Ready);
      assertThat(w.getStatus().nodesReady()).containsExactly(node);
      assertThat(Conditions.find(w.getStatus().conditions(), "Degraded").getMessage())
          .isEqualTo("spec.hyperParameters.strategy: dpo is not served; supported: lora, tfew");
    });
    client.resources(dev.modelplane.api.ome.v1beta1.FineTunedWeight.class).withName(name).delete();
    await().during(Duration.ofSeconds(2)).atMost(TIMEOUT).untilAsserted(() -> assertThat(client.resources(
        dev.modelplane.api.ome.v1beta1.FineTunedWeight.class).withName(name).get()).isNotNull());
    report(client, node, key, null);
    eventually(TIMEOUT).untilAsserted(() -> assertThat(client.resources(
        dev.modelplane.api.ome.v1beta1.FineTunedWeight.class).withName(name).get()).isNull());
    client.nodes().withName(node).delete();
  }

  @Test
  void optOutAnnotationKeepsTheSpecAsWritten(KubeTest kube) {
    KubernetesClient client = kube.client();
    String nodeA = kube.uniqueName("bm-skip");
    node(client, nodeA);
    BaseModel model = baseModel("skip", """
        storage:
          storageUri: hf://org/model
        """);
    model.getMetadata().setAnnotations(Map.of("ome.oracle.com/skip-config-parsing", "true"));
    client.resource(model).create();
    ObjectNode config = JsonNodeFactory.instance.objectNode().put("modelArchitecture", "LlamaForCausalLM");
    report(client, nodeA, new BaseModelKey(kube.namespace(), "skip"), new NodeReport("skip", NodeReport.READY,
        config, null, null, null, "hf://org/model"));
    eventually(TIMEOUT).untilAsserted(() -> assertThat(client.resources(BaseModel.class).withName("skip").get()
        .getStatus().state()).isEqualTo(LifeCycleState.Ready));
    assertThat(client.resources(BaseModel.class).withName("skip").get().getSpec().modelArchitecture()).isNull();
    report(client, nodeA, new BaseModelKey(kube.namespace(), "skip"), null);
    client.nodes().withName(nodeA).delete();
  }

  @Test
  void aVendorModelIsReadyWithoutAnyNode(KubeTest kube) {
    KubernetesClient client = kube.client();
    String name = kube.uniqueName("vendor-model");
    client.resource(clusterBaseModel(name, """
        storage:
          storageUri: vendor://nvidia/nim/llama
          path: /opt/nim/llama
        """)).create();
    eventually(TIMEOUT).untilAsserted(() -> {
      ClusterBaseModel m = client.resources(ClusterBaseModel.class).withName(name).get();
      assertThat(m.getMetadata().getFinalizers()).containsExactly("clusterbasemodels.ome.io/finalizer");
      assertThat(m.getStatus().state()).isEqualTo(LifeCycleState.Ready);
      assertThat(m.getStatus().nodesReady()).isEmpty();
      var ready = Conditions.find(m.getStatus().conditions(), "Ready");
      assertThat(ready.getReason()).isEqualTo("ProvidedByVendor");
    });
    client.resources(ClusterBaseModel.class).withName(name).delete();
    eventually(TIMEOUT).untilAsserted(() ->
        assertThat(client.resources(ClusterBaseModel.class).withName(name).get()).isNull());
  }

  @Test
  void aDirectoryOfAnotherModelIsRefusedAndNeverReadyWhateverTheNodesReport(KubeTest kube) {
    KubernetesClient client = kube.client();
    String node = kube.uniqueName("bm-conflict");
    node(client, node);
    String ns = kube.namespace();
    client.resource(baseModel("first", """
        storage:
          storageUri: hf://org/model
        """)).create();
    eventually(TIMEOUT).untilAsserted(() -> assertThat(client.resources(BaseModel.class).withName("first").get()
        .getStatus()).isNotNull());
    client.resource(baseModel("second", """
        storage:
          storageUri: local:///raid/models/%s/first/weights
        """.formatted(ns))).create();
    client.resource(baseModel("elsewhere", """
        storage:
          storageUri: hf://org/model
          path: /raid/models/another-team/first
        """)).create();
    BaseModelKey second = new BaseModelKey(ns, "second");
    report(client, node, second, new NodeReport("second", NodeReport.READY, null, null, null, null,
        "local:///raid/models/" + ns + "/first/weights"));
    report(client, node, new BaseModelKey(ns, "elsewhere"), new NodeReport("elsewhere", NodeReport.READY, null,
        null, null, null, "hf://org/model"));
    eventually(TIMEOUT).untilAsserted(() -> {
      BaseModel m = client.resources(BaseModel.class).withName("second").get();
      assertThat(m.getStatus().state()).isEqualTo(LifeCycleState.Failed);
      assertThat(m.getStatus().nodesReady()).isEmpty();
      var ready = Conditions.find(m.getStatus().conditions(), "Ready");
      assertThat(ready.getStatus()).isEqualTo("False");
      assertThat(ready.getReason()).isEqualTo("PathConflict");
      assertThat(ready.getMessage()).isEqualTo("spec.storage.storageUri: '/raid/models/" + ns + "/first/weights' "
          + "is inside its directory /raid/models/" + ns + "/first of basemodel/" + ns + "/first, which claimed it "
          + "first; a model's directory may not overlap another's");
      BaseModel other = client.resources(BaseModel.class).withName("elsewhere").get();
      assertThat(other.getStatus().state()).isEqualTo(LifeCycleState.Failed);
      assertThat(Conditions.find(other.getStatus().conditions(), "Ready").getReason()).isEqualTo("PolicyRefused");
      assertThat(Conditions.find(other.getStatus().conditions(), "Ready").getMessage())
          .startsWith("spec.storage.path: '/raid/models/another-team/first' is outside the directories BaseModels "
              + "of namespace " + ns + " may use");
    });
    eventually(TIMEOUT).untilAsserted(() -> assertThat(client.v1().events().inNamespace(ns).list().getItems())
        .anyMatch(e -> "second".equals(e.getInvolvedObject().getName()) && "PathConflict".equals(e.getReason())
            && "Warning".equals(e.getType())));

    // The older model goes: the directory is free, and the agent's report counts again.
    client.resources(BaseModel.class).withName("first").delete();
    eventually(TIMEOUT).untilAsserted(() -> {
      BaseModel m = client.resources(BaseModel.class).withName("second").get();
      assertThat(m.getStatus().state()).isEqualTo(LifeCycleState.Ready);
      assertThat(m.getStatus().nodesReady()).containsExactly(node);
    });
    report(client, node, second, null);
    report(client, node, new BaseModelKey(ns, "elsewhere"), null);
    client.nodes().withName(node).delete();
  }

  @Test
  void deletionStopsWaitingForTheAgentOfANodeThatIsNotReady(KubeTest kube) {
    KubernetesClient client = kube.client();
    String node = kube.uniqueName("bm-dead");
    node(client, node); // no Ready condition: as good as a node whose kubelet never reported
    client.resource(baseModel("orphaned", """
        storage:
          storageUri: hf://org/model
        """)).create();
    BaseModelKey key = new BaseModelKey(kube.namespace(), "orphaned");
    report(client, node, key, new NodeReport("orphaned", NodeReport.READY, null, null, null, null,
        "hf://org/model"));
    eventually(TIMEOUT).untilAsserted(() -> assertThat(client.resources(BaseModel.class).withName("orphaned").get()
        .getStatus().state()).isEqualTo(LifeCycleState.Ready));
    client.resources(BaseModel.class).withName("orphaned").delete();
    eventually(TIMEOUT.plus(AGENT_TIMEOUT)).untilAsserted(() ->
        assertThat(client.resources(BaseModel.class).withName("orphaned").get()).isNull());
    eventually(TIMEOUT).untilAsserted(() -> assertThat(client.v1().events().inNamespace(kube.namespace()).list()
        .getItems()).anyMatch(e -> "orphaned".equals(e.getInvolvedObject().getName())
            && "AgentUnreachable".equals(e.getReason()) && e.getMessage().startsWith(
                "Stopped waiting for the model agent of node " + node + ": not Ready (missing) since ")));
    report(client, node, key, null);
    client.nodes().withName(node).delete();
  }

  @Test
  void unknownSchemeIsRejectedAtAdmission(KubeTest kube) {
    assertThatThrownBy(() -> kube.client().resource(baseModel("ftp", """
        storage:
          storageUri: ftp://host/model
        """)).create())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("spec.storage.storageUri")
        .hasMessageContaining("storageUri must start with one of oci://, pvc://, hf://");
  }
}
