package dev.modelplane.operator.ome.modelagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.api.ome.v1beta1.FineTunedWeight;
import dev.modelplane.controlplane.Edits;
import dev.modelplane.controlplane.FakeNode;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.operator.modelsource.fetch.DownloadOptions;
import dev.modelplane.operator.modelsource.fetch.SigV4Signer;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import dev.modelplane.operator.ome.storage.NodeReport;
import dev.modelplane.testsupport.S3Server;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent in-process ({@link ModelAgent#start}) against a real apiserver: local:// with GGUF metadata and the
 * parsing opt-out, pvc:// checks, S3 downloads kept across a restart, a changed URI fetched again into a ConfigMap
 * that was deleted meanwhile, and a second model naming the first one's directory refused (and its deletion leaving
 * the first one's files alone).
 */
@WithControlPlane
class ModelAgentIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @TempDir
  Path dir;

  private ModelAgent agent;

  @AfterEach
  void stop() {
    if (agent != null) {
      agent.close();
    }
  }

  private ModelAgent start(KubeTest test, String node, Path root) {
    ModelAgentSettings settings = ModelAgentSettings.of(node, test.namespace(),
            ModelRoots.parse(List.of("/mnt/models=" + root)))
        .withConcurrency(2, Duration.ofSeconds(1))
        .withRetries(1, Duration.ofMillis(300), new DownloadOptions(2, Duration.ofMillis(100),
            Duration.ofMillis(200), Duration.ofSeconds(10), Duration.ofMillis(200)));
    agent = ModelAgent.start(test.client(), settings);
    assertThat(agent.ready()).isTrue();
    return agent;
  }

  @Test
  void localPvcAndGgufSources(KubeTest test) throws Exception {
    KubernetesClient admin = test.client();
    String ns = test.namespace();
    String node = test.uniqueName("local");
    test.addNodes(FakeNode.cpu(node));
    Path root = Files.createDirectories(dir.resolve("root"));
    Path gguf0 = Files.createDirectories(root.resolve(ns).resolve("gguf"));
    Files.write(gguf0.resolve("tiny-q4.gguf"), gguf());
    // Two models may not share a directory: the opt-out one gets a copy of its own.
    Path gguf1 = Files.createDirectories(root.resolve(ns).resolve("gguf-skip"));
    Files.write(gguf1.resolve("tiny-q4.gguf"), gguf());
    start(test, node, root);

    create(admin, "gguf", "local:///mnt/models/" + ns + "/gguf", null, Map.of());
    create(admin, "gguf-skip", "local:///mnt/models/" + ns + "/gguf-skip", null,
        Map.of(AgentModel.SKIP_CONFIG_PARSING, "true"));
    create(admin, "missing-local", "local:///mnt/models/" + ns + "/nowhere", null, Map.of());
    create(admin, "no-claim", "pvc://absent/models/x", null, Map.of());
    admin.persistentVolumeClaims().resource(new PersistentVolumeClaimBuilder().withNewMetadata()
        .withName("pending").endMetadata().withNewSpec().withAccessModes("ReadWriteOnce").withNewResources()
        .addToRequests("storage", new io.fabric8.kubernetes.api.model.Quantity("1Gi")).endResources().endSpec()
        .build()).create();
    create(admin, "pending-claim", "pvc://pending/models/x", null, Map.of());

    NodeReport gguf = awaitStatus(admin, ns, node, "gguf", NodeReport.READY);
    assertThat(gguf.message()).contains("files already on the node at /mnt/models/" + ns + "/gguf; nothing copied",
        "GGUF header of tiny-q4.gguf");
    assertThat(gguf.config().path("modelFormat").path("name").asText()).isEqualTo("gguf");
    assertThat(gguf.config().path("modelArchitecture").asText()).isEqualTo("llama");
    assertThat(gguf.config().path("quantization").asText()).isEqualTo("Q4_K_M");
    assertThat(gguf.config().path("maxTokens").asInt()).isEqualTo(2048);
    NodeReport skipped = awaitStatus(admin, ns, node, "gguf-skip", NodeReport.READY);
    assertThat(skipped.config()).isNull();
    assertThat(skipped.message()).contains("metadata not read (ome.oracle.com/skip-config-parsing)");
    NodeReport missing = awaitStatus(admin, ns, node, "missing-local", NodeReport.FAILED);
    assertThat(missing.reason()).isEqualTo("LocalPathNotFound");
    assertThat(missing.message()).isEqualTo("spec.storage.storageUri: directory /mnt/models/" + ns + "/nowhere does "
        + "not exist on node " + node);
    NodeReport noClaim = awaitStatus(admin, ns, node, "no-claim", NodeReport.FAILED);
    assertThat(noClaim.reason()).isEqualTo("PvcNotFound");
    assertThat(noClaim.message()).isEqualTo("spec.storage.storageUri: PersistentVolumeClaim " + ns
        + "/absent does not exist");
    NodeReport pending = awaitStatus(admin, ns, node, "pending-claim", NodeReport.FAILED);
    assertThat(pending.reason()).isEqualTo("PvcNotBound");

    // Bound now (no controller-manager runs here to undo it).
    PersistentVolumeClaim claim = admin.persistentVolumeClaims().withName("pending").get();
    claim.setStatus(new PersistentVolumeClaimStatusBuilder().withPhase("Bound").build());
    admin.persistentVolumeClaims().resource(claim).updateStatus();
    create(admin, "bound-claim", "pvc://pending/models/y", null, Map.of());
    NodeReport bound = awaitStatus(admin, ns, node, "bound-claim", NodeReport.READY);
    assertThat(bound.message()).contains("PersistentVolumeClaim " + ns + "/pending", "nothing is copied");
    assertThat(label(admin, node, "bound-claim")).isEqualTo("Ready");
    assertThat(Files.list(root.resolve(ns)).toList()).as("nothing written for local/pvc")
        .containsExactlyInAnyOrder(gguf0, gguf1);

    // local:// files are never removed.
    admin.resources(BaseModel.class).withName("gguf").delete();
    org.awaitility.Awaitility.await().atMost(TIMEOUT).until(() -> report(admin, ns, node, "gguf") == null && label(admin, node, "gguf") == null);
    assertThat(gguf0.resolve("tiny-q4.gguf")).exists();
  }

  @Test
  void simulatedDownloadsPlaceAPlaceholderWithoutNetworkOrCredentials(KubeTest test) throws Exception {
    KubernetesClient admin = test.client();
    String ns = test.namespace();
    String node = test.uniqueName("sim");
    test.addNodes(FakeNode.cpu(node));
    Path root = Files.createDirectories(dir.resolve("root"));
    agent = ModelAgent.start(admin, ModelAgentSettings.of(node, ns, ModelRoots.parse(List.of("/mnt/models=" + root)))
        .withSimulatedDownloads());

    create(admin, "sim-hf", "hf://org/private-model", null, Map.of());
    // The S3 model names a Secret that does not exist and an endpoint nothing listens on.
    create(admin, "sim-s3", "s3://bucket/prefix", "/mnt/models/" + ns + "/sim-s3",
        Map.of("endpoint", "http://127.0.0.1:9"));
    create(admin, "sim-outside", "hf://org/model", "/elsewhere/model", Map.of());

    NodeReport hf = awaitStatus(admin, ns, node, "sim-hf", NodeReport.READY);
    assertThat(hf.message()).contains("downloaded hf://org/private-model into /mnt/models/" + ns
        + "/sim-hf (1 files");
    assertThat(Files.readString(root.resolve(ns).resolve("sim-hf").resolve(SimulatedModelSource.FILE)))
        .contains("the model at hf://org/private-model", "nothing was downloaded");
    assertThat(label(admin, node, "sim-hf")).isEqualTo("Ready");
    awaitStatus(admin, ns, node, "sim-s3", NodeReport.READY);
    assertThat(root.resolve(ns).resolve("sim-s3").resolve(SimulatedModelSource.FILE)).exists();
    // The path rules still hold.
    assertThat(awaitStatus(admin, ns, node, "sim-outside", NodeReport.FAILED).message()).contains("/elsewhere/model");

    admin.resources(BaseModel.class).withName("sim-hf").delete();
    org.awaitility.Awaitility.await().atMost(TIMEOUT).until(() -> report(admin, ns, node, "sim-hf") == null
        && !Files.exists(root.resolve(ns).resolve("sim-hf")));
  }

  @Test
  void fineTunedWeightsArePlacedLikeModelsUnderTheirOwnKey(KubeTest test) throws Exception {
    KubernetesClient admin = test.client();
    String ns = test.namespace();
    String node = test.uniqueName("ftw");
    test.addNodes(FakeNode.cpu(node));
    Path root = Files.createDirectories(dir.resolve("root"));
    Files.createDirectories(root.resolve("adapter"));
    Files.writeString(root.resolve("adapter/adapter_config.json"), "{\"r\": 16}");
    start(test, node, root);
    String name = test.uniqueName("support");
    admin.resource(Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: FineTunedWeight
        metadata: {name: %s}
        spec:
          baseModelRef: {name: llama}
          modelType: LoRA
          hyperParameters: {strategy: lora}
          storage: {storageUri: "local:///mnt/models/adapter"}
        """.formatted(name), FineTunedWeight.class)).create();
    BaseModelKey key = BaseModelKey.fineTunedWeight(name);
    try {
      org.awaitility.Awaitility.await().atMost(TIMEOUT).untilAsserted(() -> {
        ConfigMap cm = admin.configMaps().inNamespace(ns).withName(node).get();
        assertThat(cm).isNotNull();
        NodeReport report = NodeReport.parse(cm.getData().get("finetunedweight." + name));
        assertThat(report.status()).isEqualTo(NodeReport.READY);
        assertThat(report.config()).as("an adapter has no model config to read").isNull();
        assertThat(admin.nodes().withName(node).get().getMetadata().getLabels())
            .containsEntry("models.ome.io/finetunedweight." + name, "Ready");
      });
    } finally {
      admin.resources(FineTunedWeight.class).withName(name).delete();
    }
    org.awaitility.Awaitility.await().atMost(TIMEOUT).until(() -> !admin.nodes().withName(node).get().getMetadata()
        .getLabels().containsKey(key.labelKey()));
  }

  @Test
  void s3DownloadsSurviveRestartsFollowUriChangesAndShareDirectories(KubeTest test) throws Exception {
    KubernetesClient admin = test.client();
    String ns = test.namespace();
    String node = test.uniqueName("s3");
    test.addNodes(FakeNode.cpu(node));
    Path root = Files.createDirectories(dir.resolve("root"));
    try (S3Server s3 = S3Server.startOrSkip(dir.resolve("s3"))) {
      put(s3, "/models", new byte[0]);
      put(s3, "/models/v1/config.json", "{\"model_type\":\"gpt2\",\"architectures\":[\"GPT2LMHeadModel\"]}"
          .getBytes(StandardCharsets.UTF_8));
      put(s3, "/models/v1/weights.bin", new byte[100_000]);
      put(s3, "/models/v2/config.json", "{\"model_type\":\"gpt2\",\"architectures\":[\"GPT2Model\"]}"
          .getBytes(StandardCharsets.UTF_8));
      admin.secrets().resource(new io.fabric8.kubernetes.api.model.SecretBuilder().withNewMetadata()
          .withName("creds").endMetadata().addToStringData("access_key_id", S3Server.ACCESS_KEY)
          .addToStringData("secret_access_key", S3Server.SECRET_KEY).build()).create();
      Map<String, String> params = Map.of("endpoint", s3.endpoint().toString());
      start(test, node, root);
      create(admin, "first", "s3://models/v1", "/mnt/models/" + ns + "/shared", params);
      NodeReport first = awaitStatus(admin, ns, node, "first", NodeReport.READY);
      assertThat(first.config().path("modelArchitecture").asText()).isEqualTo("GPT2LMHeadModel");
      Path shared = root.resolve(ns).resolve("shared");
      assertThat(shared.resolve("weights.bin")).hasSize(100_000);

      // Restart: the Ready report is kept, nothing is written again.
      agent.close();
      String version = admin.configMaps().withName(node).get().getMetadata().getResourceVersion();
      start(test, node, root);
      Thread.sleep(1500);
      assertThat(admin.configMaps().withName(node).get().getMetadata().getResourceVersion()).isEqualTo(version);

      // The ConfigMap goes (as when the node was deleted and re-added); a changed URI fetches again and recreates it.
      admin.configMaps().withName(node).delete();
      org.awaitility.Awaitility.await().atMost(TIMEOUT).until(() -> admin.configMaps().withName(node).get() == null);
      Edits.onLatest(admin.resources(BaseModel.class).withName("first"), m -> {
        m.getMetadata().setAnnotations(Map.of("touched", "yes"));
        return m;
      });
      editUri(admin, "first", "s3://models/v2");
      org.awaitility.Awaitility.await().atMost(TIMEOUT).until(() -> {
        NodeReport r = report(admin, ns, node, "first");
        return r != null && r.ready() && "s3://models/v2".equals(r.storageUri());
      });
      assertThat(report(admin, ns, node, "first").config().path("modelArchitecture").asText())
          .isEqualTo("GPT2Model");
      assertThat(admin.configMaps().withName(node).get().getMetadata().getLabels())
          .containsEntry("models.ome/basemodel-status", "true");

      // A second model naming the same directory (or one inside it) is refused: it neither downloads into the
      // first one's files nor removes them when it goes.
      create(admin, "second", "s3://models/v2", "/mnt/models/" + ns + "/shared", params);
      create(admin, "inner", "local:///mnt/models/" + ns + "/shared/sub", null, Map.of());
      NodeReport second = awaitStatus(admin, ns, node, "second", NodeReport.FAILED);
      assertThat(second.reason()).isEqualTo("PathConflict");
      assertThat(second.message()).isEqualTo("spec.storage.path: '/mnt/models/" + ns + "/shared' is the same "
          + "directory of basemodel/" + ns + "/first, which claimed it first; a model's directory may not overlap "
          + "another's");
      assertThat(awaitStatus(admin, ns, node, "inner", NodeReport.FAILED).reason()).isEqualTo("PathConflict");
      admin.resources(BaseModel.class).withName("second").delete();
      admin.resources(BaseModel.class).withName("inner").delete();
      org.awaitility.Awaitility.await().atMost(TIMEOUT).until(() -> report(admin, ns, node, "second") == null
          && label(admin, node, "second") == null && report(admin, ns, node, "inner") == null);
      assertThat(shared.resolve("config.json")).exists();
      admin.resources(BaseModel.class).withName("first").delete();
      org.awaitility.Awaitility.await().atMost(TIMEOUT).until(() -> !Files.exists(shared));
    }
  }

  @Test
  void limitsFailModelsWithTheNumbersBeforeAnythingIsWritten(KubeTest test) throws Exception {
    KubernetesClient admin = test.client();
    String ns = test.namespace();
    String node = test.uniqueName("limits");
    test.addNodes(FakeNode.cpu(node));
    Path root = Files.createDirectories(dir.resolve("root"));
    try (S3Server s3 = S3Server.startOrSkip(dir.resolve("s3"))) {
      put(s3, "/limits", new byte[0]);
      put(s3, "/limits/big/config.json", "{}".getBytes(StandardCharsets.UTF_8));
      put(s3, "/limits/big/weights.bin", new byte[100_000]);
      for (int i = 0; i < 3; i++) {
        put(s3, "/limits/many/part-" + i, new byte[] {1});
      }
      admin.secrets().resource(new io.fabric8.kubernetes.api.model.SecretBuilder().withNewMetadata()
          .withName("creds").endMetadata().addToStringData("access_key_id", S3Server.ACCESS_KEY)
          .addToStringData("secret_access_key", S3Server.SECRET_KEY).build()).create();
      Map<String, String> params = Map.of("endpoint", s3.endpoint().toString());
      agent = ModelAgent.start(admin, ModelAgentSettings.of(node, ns, ModelRoots.parse(List.of("/mnt/models="
          + root))).withLimits(new AgentLimits(50_000, 2, 100)));

      create(admin, "big", "s3://limits/big", null, params);
      create(admin, "many", "s3://limits/many", null, params);
      NodeReport big = awaitStatus(admin, ns, node, "big", NodeReport.FAILED);
      assertThat(big.reason()).isEqualTo("InsufficientStorage");
      assertThat(big.message()).startsWith("spec.storage.path: the model needs 100002 bytes (97.7 KiB) more in "
          + "/mnt/models/" + ns + "/big (100002 bytes (97.7 KiB) in all, 0 bytes already there), but the disk "
          + "budget of /mnt/models is 50000 bytes (48.8 KiB) and ").endsWith("; agent flag --disk-budget)");
      assertThat(root.resolve(ns).resolve("big")).doesNotExist();
      NodeReport many = awaitStatus(admin, ns, node, "many", NodeReport.FAILED);
      assertThat(many.reason()).isEqualTo("InvalidSource");
      assertThat(many.message()).isEqualTo("more than 2 objects under prefix 'many/' in S3 bucket 'limits'; a model "
          + "may have at most 2 files (model agent flag --max-listed-objects)");
    } finally {
      // Other tests' agents see every model: leave none whose source is about to disappear.
      admin.resources(BaseModel.class).inNamespace(ns).withName("big").delete();
      admin.resources(BaseModel.class).inNamespace(ns).withName("many").delete();
    }
  }

  // ---- fixtures

  private static void create(KubernetesClient admin, String name, String uri, String path,
      Map<String, String> annotationsOrParams) {
    boolean isParams = annotationsOrParams.containsKey("endpoint");
    StringBuilder yaml = new StringBuilder("apiVersion: ome.io/v1beta1\nkind: BaseModel\nmetadata:\n  name: " + name
        + "\n");
    if (!isParams && !annotationsOrParams.isEmpty()) {
      yaml.append("  annotations:\n");
      annotationsOrParams.forEach((k, v) -> yaml.append("    ").append(k).append(": \"").append(v).append("\"\n"));
    }
    yaml.append("spec:\n  storage:\n    storageUri: \"").append(uri).append("\"\n");
    if (path != null) {
      yaml.append("    path: ").append(path).append('\n');
    }
    if (isParams) {
      yaml.append("    key: creds\n    parameters:\n");
      annotationsOrParams.forEach((k, v) -> yaml.append("      ").append(k).append(": \"").append(v).append("\"\n"));
    }
    admin.resource(admin.getKubernetesSerialization().unmarshal(yaml.toString(), BaseModel.class)).create();
  }

  private static void editUri(KubernetesClient admin, String name, String uri) {
    Edits.onLatest(admin.resources(BaseModel.class).withName(name), m -> {
      var s = m.getSpec().storage();
      var storage = new dev.modelplane.api.ome.v1beta1.StorageSpec(s.path(), s.schemaPath(), s.parameters(), s.key(),
          uri, s.nodeSelector(), s.nodeAffinity(), s.downloadPolicy());
      var spec = m.getSpec();
      m.setSpec(new dev.modelplane.api.ome.v1beta1.BaseModelSpec(spec.modelFormat(), spec.modelType(),
          spec.modelFramework(), spec.modelArchitecture(), spec.quantization(), spec.modelParameterSize(),
          spec.modelCapabilities(), spec.apiCapabilities(), spec.modelConfiguration(), storage, spec.displayName(),
          spec.version(), spec.vendor(), spec.disabled(), spec.compartmentID(), spec.servingMode(), spec.maxTokens(),
          spec.additionalMetadata(), spec.diffusionPipeline()));
      return m;
    });
  }

  private static NodeReport awaitStatus(KubernetesClient admin, String ns, String node, String model, String status) {
    org.awaitility.Awaitility.await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(100)).until(() -> {
      NodeReport r = report(admin, ns, node, model);
      return r != null && status.equals(r.status()) && status.equals(label(admin, node, model));
    });
    return report(admin, ns, node, model);
  }

  private static NodeReport report(KubernetesClient admin, String ns, String node, String model) {
    ConfigMap cm = admin.configMaps().inNamespace(ns).withName(node).get();
    String json = cm == null || cm.getData() == null ? null
        : cm.getData().get(new BaseModelKey(ns, model).reportKey());
    return json == null ? null : NodeReport.parse(json);
  }

  private static String label(KubernetesClient admin, String node, String model) {
    Map<String, String> labels = admin.nodes().withName(node).get().getMetadata().getLabels();
    return labels.get(new BaseModelKey(admin.getNamespace(), model).labelKey());
  }

  private static void put(S3Server s3, String path, byte[] body) throws IOException, InterruptedException {
    s3.put(path, body, (method, host, p, sha) -> new SigV4Signer(S3Server.ACCESS_KEY, S3Server.SECRET_KEY, null,
        S3Server.REGION, "s3").sign(new SigV4Signer.Request(method, host, p, List.of(), Map.of(), sha), Instant.now()));
  }

  /** A GGUF v3 header: architecture llama, file type Q4_K_M (15), context length 2048, no tensors. */
  static byte[] gguf() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteBuffer b = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0x46554747).putInt(3).putLong(0).putLong(3);
    string(b, "general.architecture");
    b.putInt(8);
    string(b, "llama");
    string(b, "general.file_type");
    b.putInt(4).putInt(15);
    string(b, "llama.context_length");
    b.putInt(4).putInt(2048);
    out.write(b.array(), 0, b.position());
    return out.toByteArray();
  }

  private static void string(ByteBuffer b, String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    b.putLong(bytes.length).put(bytes);
  }
}
