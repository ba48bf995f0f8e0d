package dev.modelplane.cli;

import static org.awaitility.Awaitility.await;

import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import dev.modelplane.operator.ome.storage.NodeReport;
import dev.modelplane.testsupport.FakeHub;
import dev.modelplane.testsupport.FreePorts;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
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

/**
 * Model agents as processes for the control-plane tests: the shaded jar, one process per fake node, each with the
 * service account of {@code deploy/model-agent/rbac.yaml} and its own temporary models root (specs name
 * {@code /mnt/models}), plus the servers the models come from. Closing it kills the processes (printing their logs)
 * and stops the servers.
 */
final class AgentCluster implements AutoCloseable {
  static final Duration TIMEOUT = OperatorFixtures.TIMEOUT;
  static final int BIG = 8 * 1024 * 1024;
  /** Parameters in the two generated safetensors files: 64x32 + 32x16 + 16. */
  static final long PARAMETERS = 64 * 32 + 32 * 16 + 16;

  private final Path dir;
  private final List<AgentProcess> processes = new ArrayList<>();
  private final List<AutoCloseable> servers = new ArrayList<>();

  AgentCluster(Path dir) {
    this.dir = dir;
  }

  /** A server to stop at the end. */
  <T extends AutoCloseable> T add(T server) {
    servers.add(server);
    return server;
  }

  @Override
  public void close() throws Exception {
    for (AgentProcess p : processes) {
      p.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      System.out.println("----- " + p.logFile().getFileName() + "\n" + p.log());
    }
    for (AutoCloseable server : servers) {
      server.close();
    }
  }

  /** A Hub serving {@link #modelFiles()}, everything but config.json as LFS files, all from the hub itself. */
  FakeHub hub() throws IOException {
    FakeHub hub = new FakeHub();
    add(hub);
    hub.redirectLfs = false;
    modelFiles().forEach((name, content) -> hub.file(name, content, !name.endsWith(".json")));
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

  static String baseModel(String name, String uri, String path, String placement, String endpoint) {
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

  static <T extends io.fabric8.kubernetes.api.model.HasMetadata> void create(KubernetesClient admin,
      Class<T> type, String yaml) {
    admin.resource(admin.getKubernetesSerialization().unmarshal(yaml, type)).create();
  }

  /** Applies deploy/model-agent/rbac.yaml into the test namespace and returns a kubeconfig with its token. */
  Path agentKubeconfig(KubeTest test) throws IOException {
    String account = test.uniqueName("model-agent");
    String text = Files.readString(OperatorFixtures.repoRoot().resolve("deploy/model-agent/rbac.yaml"))
        .replace("namespace: modelplane-system", "namespace: " + test.namespace())
        .replace("namespace: modelplane-model-agent", "namespace: " + test.namespace())
        .replace("name: modelplane-model-agent-secrets\n", "name: " + account + "-secrets\n")
        .replace("name: modelplane-model-agent\n", "name: " + account + "\n");
    OperatorFixtures.applyAll(test.client(), text);
    return OperatorFixtures.kubeconfigWithToken(test, account, dir.resolve(account + ".kubeconfig"));
  }

  AgentProcess start(String node, Path kubeconfig, String ns, FakeHub hub) throws IOException {
    int port = FreePorts.pick();
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

  static NodeReport report(KubernetesClient admin, String ns, String node, BaseModelKey key) {
    ConfigMap cm = admin.configMaps().inNamespace(ns).withName(node).get();
    String json = cm == null || cm.getData() == null ? null : cm.getData().get(key.reportKey());
    return json == null ? null : NodeReport.parse(json);
  }

  static NodeReport awaitStatus(KubernetesClient admin, String ns, String node, BaseModelKey key,
      String status) {
    await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> {
      NodeReport r = report(admin, ns, node, key);
      return r != null && status.equals(r.status());
    });
    return report(admin, ns, node, key);
  }

  static void awaitReady(KubernetesClient admin, String ns, String node, BaseModelKey key) {
    awaitStatus(admin, ns, node, key, NodeReport.READY);
    await().atMost(TIMEOUT).until(() -> "Ready".equals(label(admin, node, key)));
  }

  static String label(KubernetesClient admin, String node, BaseModelKey key) {
    return modelLabels(admin, node).get(key.labelKey());
  }

  static Map<String, String> modelLabels(KubernetesClient admin, String node) {
    Node n = admin.nodes().withName(node).get();
    Map<String, String> labels = new java.util.HashMap<>(n.getMetadata().getLabels());
    labels.keySet().removeIf(k -> !k.startsWith(BaseModelKey.LABEL_PREFIX));
    return labels;
  }

  static long size(Path file) {
    try {
      return Files.exists(file) ? Files.size(file) : 0;
    } catch (IOException e) {
      return 0;
    }
  }

  static String uncheckedLog(AgentProcess p) {
    try {
      return p.log();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  record AgentProcess(Process process, int port, Path logFile, Path root) {
    /** The HTTP status of {@code path}, or -1 while nothing listens on the port. */
    int status(String path) throws IOException, InterruptedException {
      return OperatorFixtures.status(port, path);
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
      return OperatorFixtures.get(port, path);
    }

    String log() throws IOException {
      return Files.readString(logFile);
    }
  }
}
