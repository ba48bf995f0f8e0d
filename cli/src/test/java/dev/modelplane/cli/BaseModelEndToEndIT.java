package dev.modelplane.cli;

import static dev.modelplane.cli.AgentCluster.PARAMETERS;
import static dev.modelplane.cli.AgentCluster.TIMEOUT;
import static dev.modelplane.cli.AgentCluster.baseModel;
import static dev.modelplane.cli.AgentCluster.create;
import static dev.modelplane.cli.AgentCluster.label;
import static dev.modelplane.cli.AgentCluster.report;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.api.ome.v1beta1.LifeCycleState;
import dev.modelplane.controlplane.FakeNode;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.app.ModelplaneOperator;
import dev.modelplane.operator.common.Conditions;
import dev.modelplane.operator.modelsource.ParameterCountFormat;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import dev.modelplane.operator.ome.storage.ModelStorageSettings;
import dev.modelplane.testsupport.FakeHub;
import dev.modelplane.testsupport.FreePorts;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OME base models end to end: the BaseModel controller (in-process) and one model-agent process per kwok node, all on
 * a real apiserver. A model is downloaded where its storage selects, the controller aggregates the agents' reports
 * into status, fills the spec fields left empty from the downloaded config.json and safetensors headers, and a delete
 * waits until every agent has removed its copy.
 */
@WithControlPlane
class BaseModelEndToEndIT {
  @TempDir
  Path dir;
  private AgentCluster cluster;
  private ModelplaneOperator operator;
  private KubernetesClient operatorClient;

  @BeforeEach
  void setUp() {
    cluster = new AgentCluster(dir);
  }

  @AfterEach
  void stop() throws Exception {
    if (operator != null) {
      operator.close();
      operatorClient.close();
    }
    cluster.close();
  }

  @Test
  void agentsDownloadAndTheControllerAggregatesFillsAndCleansUp(KubeTest test) throws Exception {
    KubernetesClient admin = test.client();
    String ns = test.namespace();
    String a = test.uniqueName("e2e-a");
    String b = test.uniqueName("e2e-b");
    String c = test.uniqueName("e2e-c");
    test.addNodes(FakeNode.cpu(a).withLabel("gpu", "a100"), FakeNode.cpu(b).withLabel("gpu", "h100"),
        FakeNode.cpu(c));
    FakeHub hub = cluster.hub();
    Path kubeconfig = cluster.agentKubeconfig(test);
    Map<String, AgentCluster.AgentProcess> agents = Map.of(a, cluster.start(a, kubeconfig, ns, hub),
        b, cluster.start(b, kubeconfig, ns, hub), c, cluster.start(c, kubeconfig, ns, hub));
    operatorClient = test.controlPlane().newClient();
    operator = ModelplaneOperator.create(operatorClient, OperatorSettings.defaults().toBuilder()
        .namespaces(Set.of(ns)).modelAgentNamespace(ns)
        .modelStorage(new ModelStorageSettings(List.of("/mnt/models"), null)).build(), new SimpleMeterRegistry(),
        null).start();

    create(admin, BaseModel.class, baseModel("llama", "hf://" + FakeHub.REPO,
        "/mnt/models/" + ns + "/llama",
        "nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
            + "[{matchExpressions: [{key: gpu, operator: Exists}]}]}}", null)
        .replace("spec:\n", "spec:\n  modelType: user-given\n"));
    create(admin, BaseModel.class, baseModel("unreachable", "s3://models/tiny",
        "/mnt/models/" + ns + "/unreachable",
        "nodeSelector: {gpu: a100}", "http://127.0.0.1:" + FreePorts.pick()));

    await().atMost(TIMEOUT).ignoreExceptions().untilAsserted(() -> {
      BaseModel m = admin.resources(BaseModel.class).withName("llama").get();
      assertThat(m.getMetadata().getFinalizers()).containsExactly("basemodels.ome.io/finalizer");
      assertThat(m.getStatus().state()).isEqualTo(LifeCycleState.Ready);
      assertThat(m.getStatus().nodesReady()).containsExactly(a, b);
      assertThat(m.getStatus().nodesFailed()).isEmpty();
      assertThat(Conditions.find(m.getStatus().conditions(), "Ready").getMessage())
          .isEqualTo("Ready on 2 of 2 node(s): " + a + ", " + b);
      assertThat(m.getSpec().modelParameterSize()).isEqualTo(ParameterCountFormat.format(PARAMETERS));
      assertThat(m.getSpec().modelArchitecture()).isEqualTo("LlamaForCausalLM");
      assertThat(m.getSpec().maxTokens()).isEqualTo(4096);
      assertThat(m.getSpec().modelFramework().name()).isEqualTo("transformers");
      assertThat(m.getSpec().modelFramework().version()).isEqualTo("4.44.0");
      assertThat(m.getSpec().modelFormat().name()).isEqualTo("safetensors");
      assertThat(m.getSpec().modelType()).as("a spec value is never overwritten").isEqualTo("user-given");
    });
    BaseModelKey llama = new BaseModelKey(ns, "llama");
    assertThat(report(admin, ns, a, llama).config().path("parameterCount").path("value").asLong())
        .isEqualTo(PARAMETERS);
    assertThat(label(admin, c, llama)).as("the unselected node").isNull();
    assertThat(agents.get(c).root()).isEmptyDirectory();

    await().atMost(TIMEOUT).ignoreExceptions().untilAsserted(() -> {
      BaseModel m = admin.resources(BaseModel.class).withName("unreachable").get();
      assertThat(m.getStatus().state()).isEqualTo(LifeCycleState.Failed);
      assertThat(m.getStatus().nodesFailed()).containsExactly(a);
      assertThat(Conditions.find(m.getStatus().conditions(), "Degraded").getMessage())
          .startsWith(a + ": SourceUnreachable: ").contains("127.0.0.1");
    });

    admin.resources(BaseModel.class).withName("llama").delete();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(admin.resources(BaseModel.class).withName("llama").get()).isNull();
      for (String node : List.of(a, b)) {
        assertThat(Files.exists(agents.get(node).root().resolve(ns + "/llama"))).as(node + " files").isFalse();
        assertThat(label(admin, node, llama)).as(node + " label").isNull();
        assertThat(report(admin, ns, node, llama)).as(node + " report").isNull();
      }
    });
  }
}
