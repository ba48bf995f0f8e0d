package dev.modelplane.operator.it;

import static dev.modelplane.operator.it.OperatorHarness.model;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.ModelPhase;
import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.controlplane.FakeNode;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.modelsource.CacheKey;
import dev.modelplane.operator.modelsource.GgufFixtures;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Model prefetch on a real apiserver with the Job controller, scheduler and kwok: the Job is created with the
 * Model's prefetch tolerations, its pod is scheduled and completed, and the Model goes Downloading → Ready.
 */
@WithControlPlane({ControlPlane.Component.CONTROLLER_MANAGER, ControlPlane.Component.SCHEDULER,
    ControlPlane.Component.KWOK})
class ModelPrefetchIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static OperatorHarness harness;
  private static GgufFixtures.Server files;

  @BeforeAll
  static void start(ControlPlane controlPlane) throws IOException {
    files = GgufFixtures.server();
    harness = OperatorHarness.start(controlPlane, OperatorSettings.defaults().toBuilder()
        .inspectModels(false).build());
  }

  @AfterAll
  static void stop() {
    if (harness != null) {
      harness.close();
    }
    if (files != null) {
      files.close();
    }
  }

  /** The namespace's shared cache claim, bound to a volume (kwok clusters have no provisioner). */
  private static void boundSharedCache(KubernetesClient client, String ns) {
    String pv = "cache-" + ns;
    client.persistentVolumes().resource(new PersistentVolumeBuilder().withNewMetadata().withName(pv).endMetadata()
        .withNewSpec().withCapacity(Map.of("storage", new Quantity("100Gi")))
        .withAccessModes("ReadWriteOnce").withNewHostPath().withPath("/tmp/" + pv).endHostPath()
        .withStorageClassName("").endSpec().build()).create();
    client.persistentVolumeClaims().resource(new PersistentVolumeClaimBuilder().withNewMetadata()
        .withName("llmkube-model-cache").endMetadata().withNewSpec().withAccessModes("ReadWriteOnce")
        .withStorageClassName("").withVolumeName(pv).withNewResources()
        .addToRequests("storage", new Quantity("100Gi")).endResources().endSpec().build()).create();
    await().atMost(TIMEOUT).until(() -> "Bound".equals(client.persistentVolumeClaims()
        .withName("llmkube-model-cache").get().getStatus().getPhase()));
  }

  @Test
  void aPrefetchedModelDownloadsWithAJobAndIsReadyWhenItCompletes(KubeTest test) throws IOException {
    KubernetesClient client = test.client();
    test.addNodes(FakeNode.cpu("pf-" + Integer.toHexString(test.namespace().hashCode())));
    boundSharedCache(client, test.namespace());
    String url = files.put("/org/llama/resolve/main/llama.gguf", GgufFixtures.llama(1024 * 1024));
    client.resource(model("llama", """
        source: %s
        prefetch: true
        prefetchTolerations:
        - {key: dedicated, operator: Exists, effect: NoSchedule}
        """.formatted(url))).create();
    String jobName = "llama-prefetch-" + CacheKey.of(url).substring(0, 10);
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Job job = client.batch().v1().jobs().withName(jobName).get();
      assertThat(job).as("prefetch Job").isNotNull();
      assertThat(job.getSpec().getTemplate().getSpec().getTolerations()).singleElement()
          .satisfies(t -> assertThat(t.getKey()).isEqualTo("dedicated"));
      assertThat(job.getMetadata().getOwnerReferences()).singleElement()
          .satisfies(o -> assertThat(o.getName()).isEqualTo("llama"));
    });
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Model m = client.resources(Model.class).withName("llama").get();
      assertThat(m.getStatus()).isNotNull();
      assertThat(m.getStatus().phase()).isEqualTo(ModelPhase.READY);
      assertThat(m.getStatus().conditions()).anySatisfy(c -> {
        assertThat(c.getType()).isEqualTo("Available");
        assertThat(c.getReason()).isEqualTo("Prefetched");
      });
    });
    Job job = client.batch().v1().jobs().withName(jobName).get();
    assertThat(job.getStatus().getSucceeded()).isEqualTo(1);
    // The Downloading phase was written while the Job ran: its Normal event and the Progressing condition's
    // history are the evidence (the Job may finish before a poll sees the phase).
    List<Event> events = client.v1().events().list().getItems();
    assertThat(events).anySatisfy(e -> {
      assertThat(e.getReason()).isEqualTo("PrefetchStarted");
      assertThat(e.getMessage()).isEqualTo("Job " + jobName + " downloads 1 file(s) into claim llmkube-model-cache");
    });
  }

  @Test
  void changingTheSourceReplacesThePrefetchJob(KubeTest test) throws IOException {
    KubernetesClient client = test.client();
    test.addNodes(FakeNode.cpu("pf-" + Integer.toHexString(test.namespace().hashCode())));
    boundSharedCache(client, test.namespace());
    String first = files.put("/org/a/resolve/main/a.gguf", GgufFixtures.llama(64 * 1024));
    String second = files.put("/org/b/resolve/main/b.gguf", GgufFixtures.llama(64 * 1024));
    client.resource(model("swap", "source: " + first + "\nprefetch: true\n")).create();
    String firstJob = "swap-prefetch-" + CacheKey.of(first).substring(0, 10);
    await().atMost(TIMEOUT).until(() -> client.batch().v1().jobs().withName(firstJob).get() != null);
    // A merge patch without a resourceVersion: the operator writes the status concurrently.
    client.resources(Model.class).withName("swap").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"source\":\"" + second + "\"}}");
    String secondJob = "swap-prefetch-" + CacheKey.of(second).substring(0, 10);
    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(client.batch().v1().jobs().withName(secondJob).get()).isNotNull();
      assertThat(client.batch().v1().jobs().withName(firstJob).get()).isNull();
      Model m = client.resources(Model.class).withName("swap").get();
      assertThat(m.getStatus().phase()).isEqualTo(ModelPhase.READY);
      assertThat(m.getStatus().cacheKey()).isEqualTo(CacheKey.of(second));
    });
  }
}
