package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.testsupport.FreePorts;
import dev.modelplane.testsupport.TestTokenizers;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container image of {@code hack/image/build.sh}: a well-formed OCI archive (digests, diff IDs, config, the
 * {@code docker load} manifest), built the same twice, whose file system alone — unpacked and entered with chroot as
 * the image's user, with its own entrypoint — runs the operator against a real apiserver with the RBAC manifest's
 * permissions, and the simulator with a Hugging Face tokenizer (a native library). That is what a kubelet does with
 * it, minus the registry.
 */
@WithControlPlane
class OperatorImageIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(2)).build();

  @TempDir
  Path dir;

  private Process operator;

  @AfterEach
  void stop() throws IOException {
    if (operator != null) {
      // chroot --userspec changes the user, which clears the death signal unshare --kill-child sets on its child:
      // the operator would outlive unshare, so the whole tree is stopped here.
      List<ProcessHandle> tree = operator.descendants().toList();
      operator.destroyForcibly();
      tree.forEach(ProcessHandle::destroyForcibly);
      System.out.println("----- operator log\n" + Files.readString(dir.resolve("operator.log")));
    }
  }

  private Path build(String name) throws Exception {
    Path out = dir.resolve(name);
    Process p = new ProcessBuilder("bash", OperatorFixtures.repoRoot().resolve("hack/image/build.sh").toString(),
        "--jar", OperatorFixtures.jar().toString(), "--name", "registry.test/modelplane:it", "--output",
        out.toString()).redirectErrorStream(true).redirectOutput(dir.resolve(name + ".log").toFile()).start();
    assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("image build finishes").isTrue();
    assertThat(p.exitValue()).as(Files.readString(dir.resolve(name + ".log"))).isZero();
    return out;
  }

  private static void run(Path workDir, String... command) throws Exception {
    Process p = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(String.join(" ", command) + "\n" + output).isZero();
  }

  private static String sha256(InputStream in) throws Exception {
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    byte[] buffer = new byte[1 << 16];
    for (int n; (n = in.read(buffer)) > 0; ) {
      digest.update(buffer, 0, n);
    }
    return "sha256:" + HexFormat.of().formatHex(digest.digest());
  }

  private static Path blob(Path layout, String digest) {
    return layout.resolve("blobs/sha256").resolve(digest.substring("sha256:".length()));
  }

  @Test
  void theImageIsAValidOciArchiveWhoseFileSystemRunsTheOperator(KubeTest test) throws Exception {
    boolean root = "0".equals(new String(new ProcessBuilder("id", "-u").start().getInputStream().readAllBytes(),
        StandardCharsets.UTF_8).strip());
    if (!root) {
      String why = "entering the image's file system needs root (chroot, a private /proc)";
      assertThat("true".equals(System.getenv("CI"))).as(why).isFalse();
      Assumptions.abort(why);
    }
    Path archive = build("image.tar");
    Path layout = Files.createDirectories(dir.resolve("layout"));
    run(layout, "tar", "-xf", archive.toString());

    // The OCI layout: index → manifest → config and layers, every digest and size right.
    assertThat(Files.readString(layout.resolve("oci-layout"))).isEqualTo("{\"imageLayoutVersion\":\"1.0.0\"}");
    JsonNode index = JSON.readTree(layout.resolve("index.json").toFile());
    JsonNode entry = index.path("manifests").get(0);
    assertThat(entry.path("annotations").path("io.containerd.image.name").asText())
        .isEqualTo("registry.test/modelplane:it");
    Path manifestFile = blob(layout, entry.path("digest").asText());
    assertThat(sha256(Files.newInputStream(manifestFile))).isEqualTo(entry.path("digest").asText());
    assertThat(Files.size(manifestFile)).isEqualTo(entry.path("size").asLong());
    JsonNode manifest = JSON.readTree(manifestFile.toFile());
    assertThat(manifest.path("mediaType").asText()).isEqualTo("application/vnd.oci.image.manifest.v1+json");
    JsonNode config = JSON.readTree(blob(layout, manifest.path("config").path("digest").asText()).toFile());
    assertThat(config.path("os").asText()).isEqualTo("linux");
    assertThat(config.path("config").path("User").asText()).isEqualTo("65532:65532");
    JsonNode layers = manifest.path("layers");
    JsonNode diffIds = config.path("rootfs").path("diff_ids");
    assertThat(layers).hasSize(2);
    assertThat(diffIds).hasSize(2);
    Path rootfs = Files.createDirectories(dir.resolve("rootfs"));
    List<String> dockerLayers = new ArrayList<>();
    for (int i = 0; i < layers.size(); i++) {
      JsonNode layer = layers.get(i);
      Path file = blob(layout, layer.path("digest").asText());
      assertThat(layer.path("mediaType").asText()).isEqualTo("application/vnd.oci.image.layer.v1.tar+gzip");
      assertThat(sha256(Files.newInputStream(file))).isEqualTo(layer.path("digest").asText());
      assertThat(Files.size(file)).isEqualTo(layer.path("size").asLong());
      try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
        assertThat(sha256(in)).as("diff_id of layer " + i).isEqualTo(diffIds.get(i).asText());
      }
      run(rootfs, "tar", "-xzf", file.toString());
      dockerLayers.add("blobs/sha256/" + file.getFileName());
    }
    JsonNode docker = JSON.readTree(layout.resolve("manifest.json").toFile()).get(0);
    assertThat(docker.path("RepoTags").get(0).asText()).isEqualTo("registry.test/modelplane:it");
    assertThat(JSON.convertValue(docker.path("Layers"), List.class)).isEqualTo(dockerLayers);

    // Same inputs, same image.
    Path again = build("again.tar");
    assertThat(sha256(Files.newInputStream(again))).isEqualTo(sha256(Files.newInputStream(archive)));

    // The unpacked image runs the operator: chroot as the image's user, a private /proc as a runtime mounts one.
    KubernetesClient admin = test.client();
    String ns = test.namespace();
    OperatorFixtures.serviceAccountKubeconfig(test, rootfs.resolve("etc/modelplane/kubeconfig"));
    int port = FreePorts.pick();
    ProcessBuilder builder = inImage(rootfs, config, dir.resolve("operator.log"), "operator",
        "--kubeconfig=/etc/modelplane/kubeconfig", "--lease-namespace=" + ns, "--bind-address=127.0.0.1",
        "--http-port=" + port, "--model-cache=none");
    builder.environment().put("POD_NAME", "op-image");
    operator = builder.start();

    OperatorFixtures.awaitLeader(admin, ns, "op-image");
    await().atMost(OperatorFixtures.TIMEOUT).until(() -> status(port, "/readyz") == 200);
    OperatorFixtures.applyModelAndService(admin, "from-image");
    OperatorFixtures.awaitDeployment(admin, "from-image");
    assertThat(Files.readString(dir.resolve("operator.log"))).contains("event=serving", "identity=op-image")
        .doesNotContain("UnsatisfiedLinkError", "NoClassDefFoundError", "level=ERROR");

    // The Hugging Face tokenizer's native library (C++) loads in the image as its user: the image carries its C++
    // runtime and a writable cache, and the simulator counts with the model's token ids.
    TestTokenizers.copyTinyBpe(rootfs.resolve("models/tiny"));
    int simPort = FreePorts.pick();
    Process sim = inImage(rootfs, config, dir.resolve("simulator.log"), "simulator", "--model", "tiny",
        "--host", "127.0.0.1", "--port", String.valueOf(simPort), "--tokenizer", "/models/tiny").start();
    try {
      await().atMost(OperatorFixtures.TIMEOUT).until(() -> status(simPort, "/health") == 200);
      HttpResponse<String> tokens = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + simPort
          + "/tokenize")).POST(HttpRequest.BodyPublishers.ofString("{\"prompt\":\"Hello world\"}"))
          .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(JSON.readTree(tokens.body()).path("tokens").toString()).as(Files.readString(
          dir.resolve("simulator.log"))).isEqualTo("[1268,1245,860]");
    } finally {
      List<ProcessHandle> tree = sim.descendants().toList();
      sim.destroyForcibly();
      tree.forEach(ProcessHandle::destroyForcibly);
    }
  }

  /**
   * A process of the image: its entrypoint with {@code args}, entered with chroot as the image's user in a private
   * {@code /proc}, with exactly the image's environment; output into {@code log}.
   */
  private static ProcessBuilder inImage(Path rootfs, JsonNode config, Path log, String... args) {
    List<String> command = new ArrayList<>(List.of(tool("unshare"), "--mount", "--pid", "--fork", "--kill-child",
        "--mount-proc=" + rootfs.resolve("proc"), tool("chroot"), "--userspec=65532:65532", rootfs.toString()));
    config.path("config").path("Entrypoint").forEach(e -> command.add(e.asText()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().clear();
    config.path("config").path("Env").forEach(e -> {
      String[] kv = e.asText().split("=", 2);
      builder.environment().put(kv[0], kv[1]);
    });
    return builder;
  }

  @Test
  void theOperatorDeploymentIsAcceptedAndRunsTheImagesEntrypointWithAWritableTmp(KubeTest test) throws Exception {
    String text = Files.readString(OperatorFixtures.repoRoot().resolve("deploy/operator/deployment.yaml"))
        .replace("namespace: modelplane-system", "namespace: " + test.namespace());
    io.fabric8.kubernetes.api.model.apps.Deployment deployment = test.client().apps().deployments()
        .resource(OperatorFixtures.YAML.readValue(text, io.fabric8.kubernetes.api.model.apps.Deployment.class))
        .create();
    var pod = deployment.getSpec().getTemplate().getSpec();
    var container = pod.getContainers().getFirst();
    assertThat(container.getImage()).isEqualTo("ghcr.io/modelplane/modelplane:0.1.0");
    assertThat(container.getCommand()).as("the image's entrypoint runs").isNullOrEmpty();
    assertThat(container.getArgs()).startsWith("operator");
    assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    assertThat(container.getVolumeMounts()).anySatisfy(m -> assertThat(m.getMountPath()).isEqualTo("/tmp"));
    assertThat(pod.getVolumes()).anySatisfy(v -> assertThat(v.getEmptyDir()).isNotNull());
    assertThat(container.getEnv()).anySatisfy(e -> {
      assertThat(e.getName()).isEqualTo("POD_NAME");
      assertThat(e.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.name");
    });
  }

  /** The host's copy of a tool run outside the image (the image has no shell and no coreutils). */
  private static String tool(String name) {
    return java.util.stream.Stream.of("/usr/bin", "/usr/sbin", "/bin", "/sbin").map(d -> Path.of(d, name))
        .filter(Files::isExecutable).findFirst().map(Path::toString)
        .orElseThrow(() -> new AssertionError(name + " not found (util-linux / coreutils)"));
  }

  private static int status(int port, String path) throws InterruptedException {
    try {
      return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
          .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return -1;
    }
  }
}
