package dev.modelplane.operator.it;

import static dev.modelplane.operator.it.OperatorHarness.model;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.api.llmkube.v1alpha1.GgufMetadata;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.ModelPhase;
import dev.modelplane.common.io.PathTrees;
import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.operator.modelsource.CacheKey;
import dev.modelplane.operator.modelsource.GgufFixtures;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The Model controller on a real apiserver: source forms, phases, GGUF metadata read from loopback by range. */
@WithControlPlane({ControlPlane.Component.CONTROLLER_MANAGER})
class ModelControllerIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static OperatorHarness harness;
  private static GgufFixtures.Server files;
  private static Path localRoot;

  @BeforeAll
  static void start(ControlPlane controlPlane) throws IOException {
    files = GgufFixtures.server();
    localRoot = Files.createTempDirectory("modelplane-local-models");
    harness = OperatorHarness.start(controlPlane, dev.modelplane.operator.OperatorSettings.defaults()
        .withModelCache(dev.modelplane.operator.OperatorSettings.ModelCacheSettings.disabled())
        .withHuggingFaceEndpoint(files.baseUrl()).toBuilder()
        .allowedHostPathRoots(java.util.List.of(localRoot.toString())).build());
  }

  @AfterAll
  static void stop() {
    if (harness != null) {
      harness.close();
    }
    if (files != null) {
      files.close();
    }
    if (localRoot != null) {
      try {
        PathTrees.deleteRecursively(localRoot);
      } catch (IOException e) {
        // a temp directory; nothing else to do
      }
    }
  }

  private static Model get(KubernetesClient client, String name) {
    return client.resources(Model.class).withName(name).get();
  }

  private static Condition condition(Model model, String type) {
    assertThat(model.getStatus()).as("status").isNotNull();
    return model.getStatus().conditions().stream().filter(c -> c.getType().equals(type)).findFirst().orElseThrow();
  }

  @Test
  void anHttpsGgufIsReadyWithItsHeaderReadByRange(KubeTest test) {
    String url = files.put("/bartowski/llama/resolve/main/llama-Q4_K_M.gguf", GgufFixtures.llama(8 * 1024 * 1024));
    KubernetesClient client = test.client();
    client.resource(model("llama", "source: " + url)).create();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Model m = get(client, "llama");
      assertThat(m.getStatus()).isNotNull();
      assertThat(m.getStatus().phase()).isEqualTo(ModelPhase.READY);
      assertThat(m.getStatus().cacheKey()).isEqualTo(CacheKey.of(url));
      assertThat(m.getStatus().path()).isEqualTo("/models/" + CacheKey.of(url) + "/llama-Q4_K_M.gguf");
      GgufMetadata gguf = m.getStatus().gguf();
      assertThat(gguf).isNotNull();
      assertThat(gguf.architecture()).isEqualTo("llama");
      assertThat(gguf.contextLength()).isEqualTo(131072L);
      assertThat(gguf.layerCount()).isEqualTo(32L);
      assertThat(m.getStatus().sourceContentLength()).isGreaterThan(8L * 1024 * 1024);
      assertThat(m.getStatus().size()).endsWith("MiB");
      assertThat(condition(m, "Available").getReason()).isEqualTo("WorkloadResolved");
    });
    assertThat(files.bytesSent()).isLessThan(2L * 1024 * 1024);
  }

  @Test
  void aHuggingFaceRepoWithFilesIsReadFromTheConfiguredHub(KubeTest test) {
    files.put("/org/repo/resolve/v2/model-Q8_0.gguf", GgufFixtures.llama(1024));
    KubernetesClient client = test.client();
    // the harness points hf:// at the loopback file server
    client.resource(model("hub", "source: hf://org/repo@v2\nfiles: [model-Q8_0.gguf]")).create();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Model m = get(client, "hub");
      assertThat(m.getStatus()).isNotNull();
      assertThat(m.getStatus().phase()).isEqualTo(ModelPhase.READY);
      assertThat(m.getStatus().stagedFiles()).containsExactly("model-Q8_0.gguf");
      assertThat(m.getStatus().gguf()).isNotNull();
    });
  }

  @Test
  void aClaimSourceIsPendingUntilBound(KubeTest test) {
    KubernetesClient client = test.client();
    client.resource(model("stored", "source: pvc://store/llama.gguf")).create();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Model m = get(client, "stored");
      assertThat(m.getStatus()).isNotNull();
      assertThat(m.getStatus().phase()).isEqualTo(ModelPhase.PENDING);
      assertThat(condition(m, "Progressing").getMessage()).isEqualTo("PersistentVolumeClaim store not found");
    });
    String pv = "pv-" + test.namespace().substring(test.namespace().lastIndexOf('-') + 1);
    client.persistentVolumes().resource(new PersistentVolumeBuilder().withNewMetadata().withName(pv).endMetadata()
        .withNewSpec().withCapacity(java.util.Map.of("storage", new Quantity("1Gi")))
        .withAccessModes("ReadWriteOnce").withNewHostPath().withPath("/tmp/" + pv).endHostPath()
        .withStorageClassName("").endSpec().build()).create();
    try {
      client.persistentVolumeClaims().resource(new PersistentVolumeClaimBuilder().withNewMetadata().withName("store")
          .endMetadata().withNewSpec().withAccessModes("ReadWriteOnce").withStorageClassName("").withVolumeName(pv)
          .withNewResources().addToRequests("storage", new Quantity("1Gi")).endResources().endSpec().build())
          .create();
      await().atMost(TIMEOUT).untilAsserted(() -> {
        Model m = get(client, "stored");
        assertThat(m.getStatus().phase()).isEqualTo(ModelPhase.READY);
        assertThat(m.getStatus().path()).isEqualTo("/model-source/llama.gguf");
        assertThat(m.getStatus().cacheKey()).isEmpty();
      });
    } finally {
      client.persistentVolumes().withName(pv).delete();
    }
  }

  @Test
  void aLocalPathOutsideTheAllowedRootsFailsWithAnEvent(KubeTest test) {
    KubernetesClient client = test.client();
    client.resource(model("local", "source: /etc/models/llama.gguf")).create();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Model m = get(client, "local");
      assertThat(m.getStatus()).isNotNull();
      assertThat(m.getStatus().phase()).isEqualTo(ModelPhase.FAILED);
      assertThat(condition(m, "Degraded").getMessage()).startsWith("spec.source: /etc/models/llama.gguf is not under");
      assertThat(client.v1().events().list().getItems()).anySatisfy(e -> {
        assertThat(e.getReason()).isEqualTo("HostPathNotAllowed");
        assertThat(e.getInvolvedObject().getName()).isEqualTo("local");
      });
    });
  }

  @Test
  void aLocalFileIsCheckedAgainstItsDeclaredChecksum(KubeTest test) throws Exception {
    byte[] content = GgufFixtures.llama(1024 * 1024);
    Path file = Files.write(localRoot.resolve(test.uniqueName("llama") + ".gguf"), content);
    String digest = java.util.HexFormat.of().formatHex(
        java.security.MessageDigest.getInstance("SHA-256").digest(content));
    String wrong = "0".repeat(64);
    KubernetesClient client = test.client();
    client.resource(model("local", "source: " + file + "\nsha256: " + wrong)).create();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Model m = get(client, "local");
      assertThat(m.getStatus()).isNotNull();
      assertThat(m.getStatus().phase()).isEqualTo(ModelPhase.FAILED);
      assertThat(condition(m, "Degraded").getMessage())
          .isEqualTo("spec.sha256: " + file + " has SHA-256 " + digest + ", not the declared " + wrong);
      assertThat(client.v1().events().list().getItems()).anySatisfy(e -> {
        assertThat(e.getReason()).isEqualTo("ChecksumMismatch");
        assertThat(e.getInvolvedObject().getName()).isEqualTo("local");
      });
    });

    client.resources(Model.class).withName("local").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"sha256\":\"" + digest.toUpperCase(java.util.Locale.ROOT) + "\"}}");
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Model m = get(client, "local");
      assertThat(m.getStatus().phase()).isEqualTo(ModelPhase.READY);
      assertThat(m.getStatus().sha256()).isEqualTo(digest);
      assertThat(condition(m, "Available").getReason()).isEqualTo("HostPathVerified");
      assertThat(m.getStatus().gguf().architecture()).isEqualTo("llama");
    });
  }
}
