package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.controlplane.FakeNode;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.operator.ome.basemodel.BaseModelKey;
import dev.modelplane.operator.ome.basemodel.NodeReport;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code modelplane model-agent} as a DaemonSet runs it: one shaded-jar process per kwok node, each authenticated as
 * the service account of {@code deploy/model-agent/rbac.yaml} (a permission missing from the manifest fails here),
 * each with its own temporary models root; models come from a Hub look-alike and a real S3 server on loopback.
 */
@WithControlPlane
class ModelAgentProcessIT {
  private static final Duration TIMEOUT = OperatorFixtures.TIMEOUT;
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(2)).build();
  private static final int BIG = 8 * 1024 * 1024;
  /** Parameters in the two generated safetensors files: 64x32 + 32x16 + 16. */
  private static final long PARAMETERS = 64 * 32 + 32 * 16 + 16;

  private final List<AgentProcess> processes = new ArrayList<>();
  private final List<AutoCloseable> servers = new ArrayList<>();

  @TempDir
  Path dir;

  @AfterEach
  void stop() throws Exception {
    for (AgentProcess p : processes) {
      p.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      System.out.println("----- " + p.logFile().getFileName() + "\n" + p.log());
    }
    for (AutoCloseable server : servers) {
      server.close();
    }
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
    AgentHubServer hub = hub();
    hub.bytesPerSecond = 4L * 1024 * 1024; // the 8 MiB file takes about 2 s: progress is visible
    S3TestServer s3 = S3TestServer.start(dir);
    servers.add(s3);
    s3.createBucket("models");
    for (Map.Entry<String, byte[]> f : modelFiles().entrySet()) {
      s3.putObject("models", "tiny/" + f.getKey(), f.getValue());
    }
    admin.secrets().resource(new SecretBuilder().withNewMetadata().withName("s3-creds").endMetadata()
        .addToStringData("AWS_ACCESS_KEY_ID", S3TestServer.ACCESS_KEY)
        .addToStringData("AWS_SECRET_ACCESS_KEY", S3TestServer.SECRET_KEY).build()).create();

    Path kubeconfig = agentKubeconfig(test);
    Map<String, AgentProcess> agents = Map.of(a, start(a, kubeconfig, ns, hub), b, start(b, kubeconfig, ns, hub),
        c, start(c, kubeconfig, ns, hub));
    for (AgentProcess p : agents.values()) {
      await().atMost(TIMEOUT).until(() -> p.status("/readyz") == 200);
    }

    String cluster = test.uniqueName("s3-model");
    create(admin, BaseModel.class, baseModel("hf-model", "hf://" + AgentHubServer.REPO, "/mnt/models/hf-model",
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
    create(admin, BaseModel.class, baseModel("oci-model", "oci://n/tenancy/b/bucket/o/model",
        "/mnt/models/oci", "nodeSelector: {gpu: a100}", null));
    create(admin, BaseModel.class, baseModel("unreachable", "s3://models/tiny", "/mnt/models/unreachable",
        "nodeSelector: {gpu: a100}", "http://127.0.0.1:" + S3TestServer.closedPort()));
    create(admin, BaseModel.class, baseModel("no-path", "hf://" + AgentHubServer.REPO, null,
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
      assertThat(r.storageUri()).isEqualTo("hf://" + AgentHubServer.REPO);
      assertThat(r.progress().totalFiles()).isEqualTo(4);
      assertThat(r.progress().completedFiles()).isEqualTo(4);
      assertThat(r.progress().completedBytes()).isEqualTo(r.progress().totalBytes()).isGreaterThan(BIG);
      assertThat(r.config().path("parameterCount").path("value").asLong()).isEqualTo(PARAMETERS);
      assertThat(r.config().path("modelArchitecture").asText()).isEqualTo("LlamaForCausalLM");
      assertThat(r.config().path("maxTokens").asInt()).isEqualTo(4096);
      assertThat(label(admin, node, hf)).isEqualTo("Ready");
      Path files = agents.get(node).root().resolve("hf-model");
      assertThat(Files.size(files.resolve("big.bin"))).isEqualTo(BIG);
      assertThat(Files.readAllBytes(files.resolve("config.json"))).isEqualTo(modelFiles().get("config.json"));
    }

    BaseModelKey s3Key = new BaseModelKey(null, cluster);
    awaitReady(admin, ns, a, s3Key);
    assertThat(report(admin, ns, a, s3Key).config().path("parameterCount").path("value").asLong())
        .isEqualTo(PARAMETERS);
    assertThat(agents.get(a).root().resolve("s3-tiny/model-00002-of-00002.safetensors")).exists();

    NodeReport oci = awaitStatus(admin, ns, a, new BaseModelKey(ns, "oci-model"), NodeReport.FAILED);
    assertThat(oci.reason()).isEqualTo("UnsupportedStorage");
    assertThat(oci.message()).contains("spec.storage.storageUri", "oci://");
    NodeReport noPath = awaitStatus(admin, ns, a, new BaseModelKey(ns, "no-path"), NodeReport.FAILED);
    assertThat(noPath.reason()).isEqualTo("MissingStoragePath");
    assertThat(noPath.message()).contains("spec.storage.path");
    NodeReport unreachable = awaitStatus(admin, ns, a, new BaseModelKey(ns, "unreachable"), NodeReport.FAILED);
    assertThat(unreachable.reason()).isEqualTo("SourceUnreachable");
    assertThat(unreachable.message()).contains("127.0.0.1");
    assertThat(label(admin, a, new BaseModelKey(ns, "unreachable"))).isEqualTo("Failed");

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
    assertThat(metrics).contains("modelplane_model_agent_failures_total{reason=\"UnsupportedStorage\"}");

    // Node b stops matching: its copy, label and report go; a keeps its copy.
    admin.nodes().withName(b).patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"gpu\":null}}}");
    await().atMost(TIMEOUT).until(() -> !Files.exists(agents.get(b).root().resolve("hf-model"))
        && label(admin, b, hf) == null && report(admin, ns, b, hf) == null);
    assertThat(agents.get(a).root().resolve("hf-model/big.bin")).exists();

    // Deleted (the controller's finalizer holds it): files, label and report go on every node.
    admin.resources(BaseModel.class).withName("hf-model").edit(m -> {
      m.getMetadata().setFinalizers(List.of("basemodels.ome.io/finalizer"));
      return m;
    });
    admin.resources(BaseModel.class).withName("hf-model").delete();
    await().atMost(TIMEOUT).until(() -> !Files.exists(agents.get(a).root().resolve("hf-model"))
        && label(admin, a, hf) == null && report(admin, ns, a, hf) == null);
    admin.resources(BaseModel.class).withName("hf-model").edit(m -> {
      m.getMetadata().setFinalizers(List.of());
      return m;
    });
    assertThat(agents.get(a).root().resolve("s3-tiny")).as("other models stay").exists();
    assertThat(agents.values().stream().map(p -> uncheckedLog(p))).noneMatch(l -> l.contains(S3TestServer.SECRET_KEY));
  }

  @Test
  void resumesAfterSigkillAndStopsPromptlyOnSigterm(KubeTest test) throws Exception {
    KubernetesClient admin = test.client();
    String ns = test.namespace();
    String node = test.uniqueName("gpu-r");
    test.addNodes(FakeNode.cpu(node).withLabel("gpu", "a100"));
    AgentHubServer hub = hub();
    hub.token = "hf_resume_token_0123456789";
    hub.bytesPerSecond = 1024 * 1024;
    admin.secrets().resource(new SecretBuilder().withNewMetadata().withName("hf-token").endMetadata()
        .addToStringData("token", hub.token).build()).create();
    Path kubeconfig = agentKubeconfig(test);
    create(admin, BaseModel.class, baseModel("resumed", "hf://" + AgentHubServer.REPO, "/mnt/models/resumed",
        "nodeSelector: {gpu: a100}", null).replace("storage:\n", "storage:\n    key: hf-token\n"));
    BaseModelKey key = new BaseModelKey(ns, "resumed");

    AgentProcess first = start(node, kubeconfig, ns, hub);
    Path part = first.root().resolve("resumed/big.bin.part");
    await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50)).until(() -> size(part) > 1024 * 1024);
    first.process().destroyForcibly();
    assertThat(first.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
    long killedAt = size(part);
    assertThat(report(admin, ns, node, key).status()).isEqualTo(NodeReport.UPDATING);
    assertThat(label(admin, node, key)).isEqualTo("Updating");

    AgentProcess second = start(node, kubeconfig, ns, hub);
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
    AgentProcess third = start(node, kubeconfig, ns, hub);
    awaitReady(admin, ns, node, key);
    assertThat(hub.requestsFor("big.bin")).extracting(AgentHubServer.FileRequest::range)
        .contains("bytes=" + killedAt + "-", "bytes=" + stoppedAt + "-");
    assertThat(Files.size(third.root().resolve("resumed/big.bin"))).isEqualTo(BIG);
    assertThat(third.root().resolve("resumed/big.bin.part")).doesNotExist();
    assertThat(hub.authorizations).allMatch(h -> h.equals("Bearer " + hub.token));
    for (AgentProcess p : List.of(first, second, third)) {
      assertThat(p.log()).doesNotContain(hub.token);
    }
    String done = third.log().lines().filter(l -> l.contains("fetch.done")).findFirst().orElseThrow();
    System.out.printf("[measure] killed at %d bytes, SIGTERM at %d bytes (stop took %d ms); final run: %s%n",
        killedAt, stoppedAt, stopTime.toMillis(), done);
  }

  // ---- fixtures

  private AgentHubServer hub() throws IOException {
    AgentHubServer hub = new AgentHubServer();
    servers.add(hub);
    modelFiles().forEach(hub::file);
    return hub;
  }

  /** config.json, two small safetensors files and an 8 MiB file, with fixed content. */
  static Map<String, byte[]> modelFiles() {
    byte[] big = new byte[BIG];
    new Random(42).nextBytes(big);
    Map<String, byte[]> files = new java.util.LinkedHashMap<>();
    files.put("config.json", """
        {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "max_position_embeddings": 4096,
         "torch_dtype": "float32", "transformers_version": "4.44.0", "hidden_size": 64,
         "num_hidden_layers": 1, "num_attention_heads": 4, "vocab_size": 32}
        """.getBytes(StandardCharsets.UTF_8));
    files.put("model-00001-of-00002.safetensors", safetensors(Map.of("w1", new int[] {64, 32})));
    files.put("model-00002-of-00002.safetensors", safetensors(Map.of("w2", new int[] {32, 16}, "b2",
        new int[] {16})));
    files.put("big.bin", big);
    return files;
  }

  static byte[] safetensors(Map<String, int[]> tensors) {
    StringBuilder header = new StringBuilder("{\"__metadata__\":{\"format\":\"pt\"}");
    long offset = 0;
    for (Map.Entry<String, int[]> t : new java.util.TreeMap<>(tensors).entrySet()) {
      long count = 1;
      for (int d : t.getValue()) {
        count *= d;
      }
      header.append(",\"").append(t.getKey()).append("\":{\"dtype\":\"F32\",\"shape\":")
          .append(java.util.Arrays.toString(t.getValue()).replace(" ", "")).append(",\"data_offsets\":[")
          .append(offset).append(',').append(offset + count * 4).append("]}");
      offset += count * 4;
    }
    byte[] json = header.append('}').toString().getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(json.length).array());
    out.writeBytes(json);
    out.writeBytes(new byte[(int) offset]);
    return out.toByteArray();
  }

  private static String baseModel(String name, String uri, String path, String placement, String endpoint) {
    return """
        apiVersion: ome.io/v1beta1
        kind: BaseModel
        metadata: {name: %s}
        spec:
          storage:
            storageUri: "%s"
        %s    %s
        %s""".formatted(name, uri, path == null ? "" : "    path: " + path + "\n", placement,
        endpoint == null ? "" : "    parameters: {endpoint: \"" + endpoint + "\"}\n");
  }

  private static <T extends io.fabric8.kubernetes.api.model.HasMetadata> void create(KubernetesClient admin,
      Class<T> type, String yaml) {
    admin.resource(admin.getKubernetesSerialization().unmarshal(yaml, type)).create();
  }

  /** Applies deploy/model-agent/rbac.yaml into the test namespace and returns a kubeconfig with its token. */
  private Path agentKubeconfig(KubeTest test) throws IOException {
    String account = test.uniqueName("model-agent");
    String text = Files.readString(OperatorFixtures.repoRoot().resolve("deploy/model-agent/rbac.yaml"))
        .replace("namespace: modelplane-system", "namespace: " + test.namespace())
        .replace("namespace: modelplane-model-agent", "namespace: " + test.namespace())
        .replace("name: modelplane-model-agent\n", "name: " + account + "\n");
    OperatorFixtures.applyAll(test.client(), text);
    return OperatorFixtures.kubeconfigWithToken(test, account, dir.resolve(account + ".kubeconfig"));
  }

  private AgentProcess start(String node, Path kubeconfig, String ns, AgentHubServer hub) throws IOException {
    int port = OperatorFixtures.freePort();
    Path root = Files.createDirectories(dir.resolve("roots").resolve(node));
    Path log = dir.resolve(node + "-" + processes.size() + ".log");
    List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx192m", "-XX:TieredStopAtLevel=1", "-jar", OperatorFixtures.jar().toString(), "model-agent",
        "--kubeconfig=" + kubeconfig, "--node-name=" + node, "--namespace=" + ns,
        "--models-root=/mnt/models=" + root, "--hf-endpoint=" + hub.endpoint(), "--bind-address=127.0.0.1",
        "--http-port=" + port, "--progress-interval=1s", "--max-retries=1", "--retry-backoff=1s",
        "--download-attempts=2");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().remove("NODE_NAME");
    builder.environment().remove("HF_ENDPOINT");
    AgentProcess p = new AgentProcess(builder.start(), port, log, root);
    processes.add(p);
    return p;
  }

  private static NodeReport report(KubernetesClient admin, String ns, String node, BaseModelKey key) {
    ConfigMap cm = admin.configMaps().inNamespace(ns).withName(node).get();
    String json = cm == null || cm.getData() == null ? null : cm.getData().get(key.reportKey());
    return json == null ? null : NodeReport.parse(json);
  }

  private static NodeReport awaitStatus(KubernetesClient admin, String ns, String node, BaseModelKey key,
      String status) {
    await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> {
      NodeReport r = report(admin, ns, node, key);
      return r != null && status.equals(r.status());
    });
    return report(admin, ns, node, key);
  }

  private static void awaitReady(KubernetesClient admin, String ns, String node, BaseModelKey key) {
    awaitStatus(admin, ns, node, key, NodeReport.READY);
    await().atMost(TIMEOUT).until(() -> "Ready".equals(label(admin, node, key)));
  }

  private static String label(KubernetesClient admin, String node, BaseModelKey key) {
    return modelLabels(admin, node).get(key.labelKey());
  }

  private static Map<String, String> modelLabels(KubernetesClient admin, String node) {
    Node n = admin.nodes().withName(node).get();
    Map<String, String> labels = new java.util.HashMap<>(n.getMetadata().getLabels());
    labels.keySet().removeIf(k -> !k.startsWith(BaseModelKey.LABEL_PREFIX));
    return labels;
  }

  private static long size(Path file) {
    try {
      return Files.exists(file) ? Files.size(file) : 0;
    } catch (IOException e) {
      return 0;
    }
  }

  private static String uncheckedLog(AgentProcess p) {
    try {
      return p.log();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private record AgentProcess(Process process, int port, Path logFile, Path root) {
    int status(String path) throws IOException, InterruptedException {
      try {
        return get(path).statusCode();
      } catch (java.net.ConnectException e) {
        return -1;
      }
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
      return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
          .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    String log() throws IOException {
      return Files.readString(logFile);
    }
  }
}
