package dev.modelplane.cli;

import static dev.modelplane.cli.AgentCluster.TIMEOUT;
import static dev.modelplane.cli.AgentCluster.awaitReady;
import static dev.modelplane.cli.AgentCluster.awaitStatus;
import static dev.modelplane.cli.AgentCluster.create;
import static dev.modelplane.cli.AgentCluster.label;
import static dev.modelplane.cli.AgentCluster.report;
import static dev.modelplane.cli.AgentCluster.size;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.controlplane.FakeNode;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.operator.modelsource.fetch.SharedKeySigner;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import dev.modelplane.operator.ome.storage.NodeReport;
import dev.modelplane.testsupport.AzuriteServer;
import dev.modelplane.testsupport.GcsServer;
import dev.modelplane.testsupport.GitHubReleasesServer;
import dev.modelplane.testsupport.OciObjectStorageServer;
import dev.modelplane.testsupport.TestModelStore;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every model store through the model agent process, as a DaemonSet runs it: OCI Object Storage (a test server
 * checking OCI signatures), Azure Blob (Azurite), Google Cloud Storage (fake-gcs-server) and GitHub releases (a test
 * server). For each, a download killed with SIGKILL midway resumes from its partial file in the next agent and ends
 * Ready with the exact bytes, and a file whose bytes do not match the checksum the store announces fails the model,
 * naming the file. Credentials come from the model's Secret, as users give them.
 */
@WithControlPlane
class StoreDownloadsIT {
  private static final int BIG = 3 * 1024 * 1024;

  @org.junit.jupiter.api.io.TempDir
  Path dir;
  private AgentCluster cluster;

  @BeforeEach
  void setUp() {
    cluster = new AgentCluster(dir);
  }

  @AfterEach
  void stop() throws Exception {
    cluster.close();
  }

  private TestModelStore start(String scheme) throws Exception {
    Path data = Files.createDirectories(dir.resolve("store-" + scheme));
    return switch (scheme) {
      case "oci" -> OciObjectStorageServer.start();
      case "az" -> {
        SharedKeySigner signer = new SharedKeySigner(AzuriteServer.ACCOUNT, AzuriteServer.ACCOUNT_KEY);
        yield AzuriteServer.startOrSkip(data, signer::authorization);
      }
      case "gs" -> GcsServer.startOrSkip(data);
      case "github" -> new GitHubReleasesServer();
      default -> throw new IllegalArgumentException(scheme);
    };
  }

  private static String model(String name, TestModelStore store, String prefix, String ns) {
    Map<String, Object> storage = new LinkedHashMap<>();
    storage.put("storageUri", store.storageUri(prefix));
    storage.put("path", "/mnt/models/" + ns + "/" + name);
    storage.put("nodeSelector", Map.of("gpu", "a100"));
    if (!store.parameters().isEmpty()) {
      storage.put("parameters", store.parameters());
    }
    if (!store.secretData().isEmpty()) {
      storage.put("key", "store-creds");
    }
    return Serialization.asYaml(Map.of("apiVersion", "ome.io/v1beta1", "kind", "BaseModel",
        "metadata", Map.of("name", name), "spec", Map.of("storage", storage)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"oci", "az", "gs", "github"})
  void aDownloadResumesAfterSigkillAndAWrongChecksumFailsNamingTheFile(String scheme, KubeTest test)
      throws Exception {
    KubernetesClient admin = test.client();
    String ns = test.namespace();
    String node = test.uniqueName("store-" + scheme);
    test.addNodes(FakeNode.cpu(node).withLabel("gpu", "a100"));
    TestModelStore store = cluster.add(start(scheme));
    byte[] big = new byte[BIG];
    new Random(7).nextBytes(big);
    byte[] config = "{\"model_type\":\"llama\",\"architectures\":[\"LlamaForCausalLM\"]}"
        .getBytes(StandardCharsets.UTF_8);
    store.put("good", "config.json", config);
    store.put("good", "weights.bin", big);
    byte[] other = big.clone();
    other[12345] ^= 1;
    store.put("bad", "config.json", config);
    store.putWithWrongChecksum("bad", "weights.bin", other, big);
    if (!store.secretData().isEmpty()) {
      admin.secrets().resource(new SecretBuilder().withNewMetadata().withName("store-creds").endMetadata()
          .addToStringData(store.secretData()).build()).create();
    }
    Path kubeconfig = cluster.agentKubeconfig(test);
    store.throttle(512 * 1024);
    create(admin, BaseModel.class, model("resumed", store, "good", ns));
    BaseModelKey key = new BaseModelKey(ns, "resumed");

    AgentCluster.AgentProcess first = cluster.start(node, kubeconfig, ns, cluster.hub());
    Path part = first.root().resolve(ns + "/resumed/weights.bin.part");
    await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50)).until(() -> size(part) > 512 * 1024);
    first.process().destroyForcibly();
    assertThat(first.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
    long killedAt = size(part);
    assertThat(killedAt).isLessThan(BIG);
    assertThat(report(admin, ns, node, key).status()).isEqualTo(NodeReport.UPDATING);

    store.throttle(0);
    AgentCluster.AgentProcess second = cluster.start(node, kubeconfig, ns, cluster.hub());
    awaitReady(admin, ns, node, key);
    Path done = second.root().resolve(ns + "/resumed/weights.bin");
    assertThat(Files.readAllBytes(done)).isEqualTo(big);
    assertThat(second.root().resolve(ns + "/resumed/weights.bin.part")).doesNotExist();
    assertThat(second.log()).contains("fetch.file.resume").contains("from=" + killedAt);
    assertThat(report(admin, ns, node, key).config().path("modelArchitecture").asText())
        .isEqualTo("LlamaForCausalLM");

    create(admin, BaseModel.class, model("corrupt", store, "bad", ns));
    BaseModelKey corrupt = new BaseModelKey(ns, "corrupt");
    NodeReport failed = awaitStatus(admin, ns, node, corrupt, NodeReport.FAILED);
    assertThat(failed.reason()).isEqualTo("IntegrityCheckFailed");
    assertThat(failed.message()).contains("'weights.bin'", "mismatch");
    await().atMost(TIMEOUT).until(() -> "Failed".equals(label(admin, node, corrupt)));
    assertThat(second.root().resolve(ns + "/corrupt/weights.bin")).doesNotExist();
    for (String value : store.secretData().values()) {
      if (value.length() > 12) {
        assertThat(AgentCluster.uncheckedLog(first) + AgentCluster.uncheckedLog(second)).doesNotContain(value);
      }
    }
  }
}
