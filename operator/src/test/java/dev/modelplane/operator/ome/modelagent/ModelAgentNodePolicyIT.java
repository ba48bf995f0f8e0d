package dev.modelplane.operator.ome.modelagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.modelplane.controlplane.FakeNode;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * deploy/model-agent/rbac.yaml and node-policy.yaml on a real API server: the agents' service account, with a token
 * bound to a pod on node A, may set models.ome.io/ labels on node A, and nothing else on any node; a token bound to
 * no pod changes no node; the agents cannot read Secrets of a namespace nobody bound them in.
 */
@WithControlPlane
class ModelAgentNodePolicyIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);

  private static Path repo() {
    return Path.of(System.getProperty("modelplane.repo.root", "..")).toAbsolutePath().normalize();
  }

  /** The manifests with the agents' namespace and names made unique to this test. */
  private static List<HasMetadata> apply(KubernetesClient admin, String file, String ns, String account)
      throws Exception {
    String text = Files.readString(repo().resolve("deploy/model-agent").resolve(file))
        .replace("namespace: modelplane-system", "namespace: " + ns)
        .replace("namespace: modelplane-model-agent", "namespace: " + ns)
        .replace("name: modelplane-model-agent-secrets\n", "name: " + account + "-secrets\n")
        .replace("name: modelplane-model-agent\n", "name: " + account + "\n")
        .replace("name: modelplane-model-agent-own-node\n", "name: " + account + "-own-node\n")
        .replace("policyName: modelplane-model-agent-own-node\n", "policyName: " + account + "-own-node\n")
        .replace("system:serviceaccount:modelplane-model-agent:modelplane-model-agent",
            "system:serviceaccount:" + ns + ":" + account);
    List<HasMetadata> created = new ArrayList<>();
    for (HasMetadata o : admin.load(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8))).items()) {
      created.add(admin.resource(o).create());
    }
    return created;
  }

  private static KubernetesClient client(KubernetesClient admin, String token) {
    Config config = new ConfigBuilder(Config.empty()).withMasterUrl(admin.getConfiguration().getMasterUrl())
        .withCaCertData(admin.getConfiguration().getCaCertData()).withOauthToken(token).build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  private static void label(KubernetesClient agent, String node, String key, String value) {
    agent.nodes().withName(node).patch(MERGE, "{\"metadata\":{\"labels\":{\"" + key + "\":"
        + (value == null ? "null" : "\"" + value + "\"") + "}}}");
  }

  @Test
  void anAgentChangesOnlyTheModelLabelsOfItsOwnNode(KubeTest test) throws Exception {
    KubernetesClient admin = test.client();
    String ns = test.namespace();
    String account = test.uniqueName("agent");
    String nodeA = test.uniqueName("node-a");
    String nodeB = test.uniqueName("node-b");
    test.addNodes(FakeNode.cpu(nodeA), FakeNode.cpu(nodeB));
    List<HasMetadata> cluster = new ArrayList<>();
    try {
      cluster.addAll(apply(admin, "rbac.yaml", ns, account));
      cluster.addAll(apply(admin, "node-policy.yaml", ns, account));
      Pod pod = admin.pods().resource(new PodBuilder().withNewMetadata().withName("agent").endMetadata()
          .withNewSpec().withServiceAccountName(account).withNodeName(nodeA).addNewContainer().withName("agent")
          .withImage("example.invalid/agent:1").endContainer().endSpec().build()).create();
      String bound = admin.serviceAccounts().withName(account).tokenRequest(new TokenRequestBuilder().withNewSpec()
          .withExpirationSeconds(3600L).withNewBoundObjectRef().withApiVersion("v1").withKind("Pod")
          .withName(pod.getMetadata().getName()).withUid(pod.getMetadata().getUid()).endBoundObjectRef().endSpec()
          .build()).getStatus().getToken();
      String unbound = admin.serviceAccounts().withName(account).tokenRequest(new TokenRequestBuilder()
          .withNewSpec().withExpirationSeconds(3600L).endSpec().build()).getStatus().getToken();
      try (KubernetesClient agent = client(admin, bound); KubernetesClient loose = client(admin, unbound)) {
        // The policy takes effect once the API server has loaded it.
        await().atMost(TIMEOUT).untilAsserted(() -> assertThatThrownBy(() -> label(agent, nodeB,
            "models.ome.io/x.basemodel.m", "Ready")).isInstanceOf(KubernetesClientException.class)
            .hasMessageContaining("the model agent may only change the node its pod runs on (" + nodeA + "), not "
                + nodeB));
        label(agent, nodeA, "models.ome.io/x.basemodel.m", "Ready");
        assertThat(admin.nodes().withName(nodeA).get().getMetadata().getLabels())
            .containsEntry("models.ome.io/x.basemodel.m", "Ready");
        label(agent, nodeA, "models.ome.io/x.basemodel.m", null);
        assertThatThrownBy(() -> label(agent, nodeA, "node-role.kubernetes.io/control-plane", ""))
            .isInstanceOf(KubernetesClientException.class)
            .hasMessageContaining("the model agent may only change node labels under models.ome.io/");
        assertThatThrownBy(() -> agent.nodes().withName(nodeA).patch(MERGE,
            "{\"spec\":{\"unschedulable\":true}}")).isInstanceOf(KubernetesClientException.class)
            .hasMessageContaining("not the node's spec");
        assertThatThrownBy(() -> label(loose, nodeA, "models.ome.io/x.basemodel.m", "Ready"))
            .isInstanceOf(KubernetesClientException.class)
            .hasMessageContaining("its token is not bound to a pod on a node");
        // Secrets: in the agents' own namespace (bound by rbac.yaml) by name, nowhere else without a binding.
        admin.secrets().resource(new io.fabric8.kubernetes.api.model.SecretBuilder().withNewMetadata()
            .withName("creds").endMetadata().addToStringData("k", "v").build()).create();
        assertThat(agent.secrets().inNamespace(ns).withName("creds").get()).isNotNull();
        assertThatThrownBy(() -> agent.secrets().inNamespace("default").withName("anything").get())
            .isInstanceOf(KubernetesClientException.class).extracting(e -> ((KubernetesClientException) e).getCode())
            .isEqualTo(403);
      }
    } finally {
      for (HasMetadata o : cluster) {
        if (o.getMetadata().getNamespace() == null) {
          admin.resource(o).delete();
        }
      }
    }
  }
}
