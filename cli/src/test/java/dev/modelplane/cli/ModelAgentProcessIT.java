package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static dev.modelplane.cli.AgentCluster.BIG;
import static dev.modelplane.cli.AgentCluster.PARAMETERS;
import static dev.modelplane.cli.AgentCluster.TIMEOUT;
import static dev.modelplane.cli.AgentCluster.awaitReady;
import static dev.modelplane.cli.AgentCluster.awaitStatus;
import static dev.modelplane.cli.AgentCluster.baseModel;
import static dev.modelplane.cli.AgentCluster.create;
import static dev.modelplane.cli.AgentCluster.label;
import static dev.modelplane.cli.AgentCluster.modelFiles;
import static dev.modelplane.cli.AgentCluster.modelLabels;
import static dev.modelplane.cli.AgentCluster.report;
import static dev.modelplane.cli.AgentCluster.size;
import static org.awaitility.Awaitility.await;

import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.controlplane.Edits;
import dev.modelplane.controlplane.FakeNode;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.operator.modelsource.fetch.SigV4Signer;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import dev.modelplane.operator.ome.storage.NodeReport;
import dev.modelplane.testsupport.FakeHub;
import dev.modelplane.testsupport.FreePorts;
import dev.modelplane.testsupport.S3Server;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code modelplane model-agent} as a DaemonSet runs it: one shaded-jar process per kwok node, each authenticated as
 * the service account of {@code deploy/model-agent/rbac.yaml} (a permission missing from the manifest fails here),
 * each with its own temporary models root; models come from a Hub look-alike and a real S3 server on loopback.
 */
@WithControlPlane
class ModelAgentProcessIT {
  /** Signs the test's uploads with the operator's own SigV4 code. */
  private static final S3Server.Signer SIGV4 = (method, host, path, sha) -> new SigV4Signer(S3Server.ACCESS_KEY,
      S3Server.SECRET_KEY, null, S3Server.REGION, "s3").sign(new SigV4Signer.Request(method, host, path, List.of(),
      Map.of(), sha), Instant.now());

  @TempDir
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

  @Test
  void placesModelsOnMatchingNodesOnlyAndReportsWhatHappened(KubeTest test) throws Exception {
    KubernetesClient admin = test.client();
    String ns = test.namespace();
    String a = test.uniqueName("gpu-a");
    String b = test.uniqueName("gpu-b");
    String c = test.uniqueName("cpu-c");
    test.addNodes(FakeNode.cpu(a).withLabel("gpu", "a100").withLabel("pool", "x"),
        FakeNode.cpu(b).withLabel("gpu", "h100"), FakeNode.cpu(c));
    FakeHub hub = cluster.hub();
    hub.bytesPerSecond = 4L * 1024 * 1024; // the 8 MiB file takes about 2 s: progress is visible
    S3Server s3 = S3Server.start(dir.resolve("s3"));
    cluster.add(s3);
    s3.put("/models", new byte[0], SIGV4);
    for (Map.Entry<String, byte[]> f : modelFiles().entrySet()) {
      s3.put("/models/tiny/" + f.getKey(), f.getValue(), SIGV4);
    }
    admin.secrets().resource(new SecretBuilder().withNewMetadata().withName("s3-creds").endMetadata()
        .addToStringData("AWS_ACCESS_KEY_ID", S3Server.ACCESS_KEY)
        .addToStringData("AWS_SECRET_ACCESS_KEY", S3Server.SECRET_KEY).build()).create();

    Path kubeconfig = cluster.agentKubeconfig(test);
    Map<String, AgentCluster.AgentProcess> agents = Map.of(a, cluster.start(a, kubeconfig, ns, hub), b, cluster.start(b, kubeconfig, ns, hub),
        c, cluster.start(c, kubeconfig, ns, hub));
    for (AgentCluster.AgentProcess p : agents.values()) {
      await().atMost(TIMEOUT).until(() -> p.status("/readyz") == 200);
    }

    String cluster = test.uniqueName("s3-model");
    create(admin, BaseModel.class, baseModel("hf-model", "hf://" + FakeHub.REPO,
        "/mnt/models/" + ns + "/hf-model",
        "nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
            + "[{matchExpressions: [{key: gpu, operator: Exists}]}]}}", null));
    create(admin, ClusterBaseModel.class, """
        apiVersion: ome.io/v1beta1
        kind: ClusterBaseModel
        metadata: {name: %s}
        spec:
          storage:
            storageUri: s3://models/tiny
            path: /mnt/models/s3-tiny
            key: s3-creds
            parameters: {endpoint: "%s"}
            nodeSelector: {pool: x}
        """.formatted(cluster, s3.endpoint()));
    create(admin, BaseModel.class, """
        apiVersion: ome.io/v1beta1
        kind: BaseModel
        metadata: {name: no-secret}
        spec:
          storage:
            storageUri: s3://models/tiny
            path: /mnt/models/%s/no-secret
            key: no-such-secret
            nodeSelector: {gpu: a100}
        """.formatted(ns));
    create(admin, BaseModel.class, baseModel("vendor-model", "vendor://nvidia/nim/llama",
        "/mnt/models/vendor", "nodeSelector: {gpu: a100}", null));
    create(admin, BaseModel.class, baseModel("unreachable", "s3://models/tiny",
        "/mnt/models/" + ns + "/unreachable",
        "nodeSelector: {gpu: a100}", "http://127.0.0.1:" + FreePorts.pick()));
    create(admin, BaseModel.class, baseModel("no-path", "hf://" + FakeHub.REPO, null,
        "nodeSelector: {gpu: a100}", null));

    BaseModelKey hf = new BaseModelKey(ns, "hf-model");
    List<NodeReport> seen = new ArrayList<>();
    await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(100)).until(() -> {
      NodeReport r = report(admin, ns, a, hf);
      if (r != null) {
        seen.add(r);
      }
      return r != null && r.ready();
    });
    assertThat(seen.stream().filter(r -> NodeReport.UPDATING.equals(r.status()) && r.progress() != null
        && r.progress().completedBytes() > 0 && r.progress().completedBytes() < r.progress().totalBytes()))
        .as("an Updating report with partial progress").isNotEmpty();
    awaitReady(admin, ns, b, hf);
    for (String node : List.of(a, b)) {
      NodeReport r = report(admin, ns, node, hf);
      assertThat(r.storageUri()).isEqualTo("hf://" + FakeHub.REPO);
      assertThat(r.progress().totalFiles()).isEqualTo(4);
      assertThat(r.progress().completedFiles()).isEqualTo(4);
      assertThat(r.progress().completedBytes()).isEqualTo(r.progress().totalBytes()).isGreaterThan(BIG);
      assertThat(r.config().path("parameterCount").path("value").asLong()).isEqualTo(PARAMETERS);
      assertThat(r.config().path("modelArchitecture").asText()).isEqualTo("LlamaForCausalLM");
      assertThat(r.config().path("maxTokens").asInt()).isEqualTo(4096);
      assertThat(label(admin, node, hf)).isEqualTo("Ready");
      Path files = agents.get(node).root().resolve(ns + "/hf-model");
      assertThat(Files.size(files.resolve("big.bin"))).isEqualTo(BIG);
      assertThat(Files.readAllBytes(files.resolve("config.json"))).isEqualTo(modelFiles().get("config.json"));
    }

    BaseModelKey s3Key = new BaseModelKey(null, cluster);
    awaitReady(admin, ns, a, s3Key);
    assertThat(report(admin, ns, a, s3Key).config().path("parameterCount").path("value").asLong())
        .isEqualTo(PARAMETERS);
    assertThat(agents.get(a).root().resolve("s3-tiny/model-00002-of-00002.safetensors")).exists();

    NodeReport noSecret = awaitStatus(admin, ns, a, new BaseModelKey(ns, "no-secret"), NodeReport.FAILED);
    assertThat(noSecret.reason()).isEqualTo("MissingCredentials");
    assertThat(noSecret.message()).contains("no-such-secret");
    // Without spec.storage.path the directory is the namespace's own: <root>/<namespace>/<name>.
    awaitReady(admin, ns, a, new BaseModelKey(ns, "no-path"));
    assertThat(agents.get(a).root().resolve(ns + "/no-path/config.json")).exists();
    NodeReport unreachable = awaitStatus(admin, ns, a, new BaseModelKey(ns, "unreachable"), NodeReport.FAILED);
    assertThat(unreachable.reason()).isEqualTo("SourceUnreachable");
    assertThat(unreachable.message()).contains("127.0.0.1");
    // The status report and the node label are two writes; the label may land a moment after the report.
    await().atMost(TIMEOUT).until(() -> "Failed".equals(label(admin, a, new BaseModelKey(ns, "unreachable"))));

    // The node without a GPU label gets nothing: no label, no report, no files.
    assertThat(modelLabels(admin, c)).isEmpty();
    ConfigMap cm = admin.configMaps().inNamespace(ns).withName(c).get();
    assertThat(cm == null || cm.getData() == null || cm.getData().isEmpty()).isTrue();
    assertThat(agents.get(c).root()).isEmptyDirectory();
    // Only the models meant for b are there.
    assertThat(modelLabels(admin, b)).containsOnlyKeys(hf.labelKey());

    String metrics = agents.get(a).get("/metrics").body();
    assertThat(OperatorFixtures.gauge(metrics, "modelplane_model_agent_downloaded_bytes_total"))
        .isGreaterThan(BIG);
    assertThat(OperatorFixtures.gauge(metrics, "modelplane_model_agent_downloads_in_progress")).isZero();
    assertThat(metrics).contains("modelplane_model_agent_failures_total{reason=\"MissingCredentials\"}");
    // A vendor:// model's files come with its image: no agent reports it or labels a node for it.
    assertThat(report(admin, ns, a, new BaseModelKey(ns, "vendor-model"))).isNull();

    // Node b stops matching: its copy, label and report go; a keeps its copy.
    admin.nodes().withName(b).patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"gpu\":null}}}");
    await().atMost(TIMEOUT).until(() -> !Files.exists(agents.get(b).root().resolve(ns + "/hf-model"))
        && label(admin, b, hf) == null && report(admin, ns, b, hf) == null);
    assertThat(agents.get(a).root().resolve(ns + "/hf-model/big.bin")).exists();

    // Deleted (the controller's finalizer holds it): files, label and report go on every node.
    Edits.onLatest(admin.resources(BaseModel.class).withName("hf-model"), m -> {
      m.getMetadata().setFinalizers(List.of("basemodels.ome.io/finalizer"));
      return m;
    });
    admin.resources(BaseModel.class).withName("hf-model").delete();
    await().atMost(TIMEOUT).until(() -> !Files.exists(agents.get(a).root().resolve(ns + "/hf-model"))
        && label(admin, a, hf) == null && report(admin, ns, a, hf) == null);
    Edits.onLatest(admin.resources(BaseModel.class).withName("hf-model"), m -> {
      m.getMetadata().setFinalizers(List.of());
      return m;
    });
    assertThat(agents.get(a).root().resolve("s3-tiny")).as("other models stay").exists();
    assertThat(agents.values().stream().map(p -> AgentCluster.uncheckedLog(p))).noneMatch(l -> l.contains(S3Server.SECRET_KEY));
  }

  @Test
  void resumesAfterSigkillAndStopsPromptlyOnSigterm(KubeTest test) throws Exception {
    KubernetesClient admin = test.client();
    String ns = test.namespace();
    String node = test.uniqueName("gpu-r");
    test.addNodes(FakeNode.cpu(node).withLabel("gpu", "a100"));
    FakeHub hub = cluster.hub();
    hub.token = "hf_resume_token_0123456789";
    hub.bytesPerSecond = 1024 * 1024;
    admin.secrets().resource(new SecretBuilder().withNewMetadata().withName("hf-token").endMetadata()
        .addToStringData("token", hub.token).build()).create();
    Path kubeconfig = cluster.agentKubeconfig(test);
    create(admin, BaseModel.class, baseModel("resumed", "hf://" + FakeHub.REPO,
        "/mnt/models/" + ns + "/resumed",
        "nodeSelector: {gpu: a100}", null).replace("storage:\n", "storage:\n    key: hf-token\n"));
    BaseModelKey key = new BaseModelKey(ns, "resumed");

    AgentCluster.AgentProcess first = cluster.start(node, kubeconfig, ns, hub);
    Path part = first.root().resolve(ns + "/resumed/big.bin.part");
    await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50)).until(() -> size(part) > 1024 * 1024);
    first.process().destroyForcibly();
    assertThat(first.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
    long killedAt = size(part);
    assertThat(report(admin, ns, node, key).status()).isEqualTo(NodeReport.UPDATING);
    assertThat(label(admin, node, key)).isEqualTo("Updating");

    AgentCluster.AgentProcess second = cluster.start(node, kubeconfig, ns, hub);
    await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50)).until(() -> size(part) > killedAt + 512 * 1024);
    long t0 = System.nanoTime();
    second.process().destroy(); // SIGTERM
    assertThat(second.process().waitFor(20, TimeUnit.SECONDS)).as("exits after SIGTERM").isTrue();
    Duration stopTime = Duration.ofNanos(System.nanoTime() - t0);
    assertThat(second.process().exitValue()).isZero();
    long stoppedAt = size(part);
    assertThat(stoppedAt).as("the partial file is kept").isGreaterThan(killedAt);
    assertThat(second.log()).contains("event=agent.stopping signal=TERM", "event=agent.exit exitCode=0");

    hub.bytesPerSecond = 0;
    AgentCluster.AgentProcess third = cluster.start(node, kubeconfig, ns, hub);
    awaitReady(admin, ns, node, key);
    assertThat(hub.fileRequests("big.bin")).extracting(FakeHub.Seen::range)
        .contains("bytes=" + killedAt + "-", "bytes=" + stoppedAt + "-");
    assertThat(Files.size(third.root().resolve(ns + "/resumed/big.bin"))).isEqualTo(BIG);
    assertThat(third.root().resolve(ns + "/resumed/big.bin.part")).doesNotExist();
    assertThat(hub.requests).extracting(FakeHub.Seen::authorization)
        .allMatch(h -> ("Bearer " + hub.token).equals(h));
    for (AgentCluster.AgentProcess p : List.of(first, second, third)) {
      assertThat(p.log()).doesNotContain(hub.token);
    }
    String done = third.log().lines().filter(l -> l.contains("fetch.done")).findFirst().orElseThrow();
    System.out.printf("[measure] killed at %d bytes, SIGTERM at %d bytes (stop took %d ms); final run: %s%n",
        killedAt, stoppedAt, stopTime.toMillis(), done);
  }
}
