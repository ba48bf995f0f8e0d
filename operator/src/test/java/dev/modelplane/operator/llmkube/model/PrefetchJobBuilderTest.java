package dev.modelplane.operator.llmkube.model;

import static dev.modelplane.operator.TestObjects.model;
import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.llmkube.ModelStaging;
import dev.modelplane.operator.modelsource.CacheKey;
import dev.modelplane.operator.modelsource.ModelLayout;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class PrefetchJobBuilderTest {
  private static final String URL = "https://example.test/org/repo/resolve/main/llama-Q4_K_M.gguf";
  private static final String SHA = "a".repeat(64);

  private static Job job(Model m) {
    m.getMetadata().setUid("uid-1");
    return PrefetchJobBuilder.build(m, ModelLayout.of(m, "https://huggingface.co"), OperatorSettings.defaults(),
        null);
  }

  private static Map<String, String> env(Container c) {
    return c.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
  }

  @Test
  void downloadsIntoTheSharedCacheWithTheServingPodsContainers() {
    Model m = model("llama", """
        source: %s
        sha256: %s
        prefetch: true
        sourceSecretRef: {name: hf-token}
        prefetchTolerations:
        - {key: dedicated, operator: Equal, value: download, effect: NoSchedule}
        """.formatted(URL, SHA.toUpperCase()));
    Job job = job(m);
    String key = CacheKey.of(URL);
    assertThat(job.getMetadata().getName()).isEqualTo("llama-prefetch-" + key.substring(0, 10));
    assertThat(job.getMetadata().getNamespace()).isEqualTo("ns");
    assertThat(job.getMetadata().getLabels()).containsEntry("inference.llmkube.dev/model", "llama")
        .containsEntry("app.kubernetes.io/component", "model-prefetch")
        .containsEntry("app.kubernetes.io/managed-by", "modelplane");
    assertThat(job.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
      assertThat(o.getKind()).isEqualTo("Model");
      assertThat(o.getName()).isEqualTo("llama");
      assertThat(o.getUid()).isEqualTo("uid-1");
      assertThat(o.getController()).isTrue();
    });
    assertThat(job.getSpec().getBackoffLimit()).isEqualTo(3);
    PodSpec pod = job.getSpec().getTemplate().getSpec();
    assertThat(pod.getRestartPolicy()).isEqualTo("Never");
    assertThat(pod.getSecurityContext().getFsGroup()).isEqualTo(OperatorSettings.defaults().defaultFsGroup());
    assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(1000L);
    assertThat(pod.getSecurityContext().getFsGroupChangePolicy()).isEqualTo("OnRootMismatch");
    assertThat(pod.getInitContainers()).singleElement().satisfies(prep -> {
      assertThat(prep.getSecurityContext().getRunAsUser()).as("not root").isNull();
      assertThat(prep.getSecurityContext().getCapabilities().getAdd()).isNullOrEmpty();
      assertThat(prep.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
    });
    // Upstream dropped prefetchTolerations from the Job; here they are the pod's only tolerations.
    assertThat(pod.getTolerations()).singleElement().satisfies(t -> {
      assertThat(t.getKey()).isEqualTo("dedicated");
      assertThat(t.getValue()).isEqualTo("download");
      assertThat(t.getEffect()).isEqualTo("NoSchedule");
    });
    assertThat(pod.getVolumes()).singleElement().satisfies(v -> {
      assertThat(v.getName()).isEqualTo("model-cache");
      assertThat(v.getPersistentVolumeClaim().getClaimName()).isEqualTo("llmkube-model-cache");
    });
    assertThat(pod.getInitContainers()).extracting(Container::getName).containsExactly("model-cache-prep");
    Container dl = pod.getContainers().getFirst();
    assertThat(pod.getContainers()).hasSize(1);
    assertThat(dl.getName()).isEqualTo("model-downloader");
    assertThat(dl.getImage()).isEqualTo(OperatorSettings.defaults().initContainerImage());
    assertThat(dl.getCommand()).containsExactly("sh", "-c", ModelStaging.DOWNLOAD_SCRIPT);
    assertThat(env(dl)).containsEntry("MODEL_SOURCE", URL)
        .containsEntry("CACHE_DIR", "/models/" + key)
        .containsEntry("MODEL_PATH", "/models/" + key + "/llama-Q4_K_M.gguf")
        .containsEntry("MODEL_FILES", "/models/" + key + "/llama-Q4_K_M.gguf " + URL + " " + SHA);
    assertThat(dl.getEnvFrom()).singleElement().satisfies(e ->
        assertThat(e.getSecretRef().getName()).isEqualTo("hf-token"));
    assertThat(dl.getVolumeMounts()).singleElement().satisfies(vm -> {
      assertThat(vm.getMountPath()).isEqualTo("/models");
      assertThat(vm.getReadOnly()).isNull();
    });
    assertThat(dl.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
    assertThat(dl.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
  }

  @Test
  void multiFileSourcesFetchEveryFileAndNoSecretMeansNoEnvFrom() {
    Model m = model("qwen", """
        source: hf://Qwen/Qwen3-GGUF@v2
        prefetch: true
        files: [qwen-00001-of-00002.gguf, qwen-00002-of-00002.gguf]
        """);
    Container dl = job(m).getSpec().getTemplate().getSpec().getContainers().getFirst();
    assertThat(env(dl).get("MODEL_FILES").lines().toList()).hasSize(2)
        .allSatisfy(l -> assertThat(l).contains("/resolve/v2/qwen-0000"));
    assertThat(dl.getEnvFrom()).isEmpty();
    assertThat(job(m).getSpec().getTemplate().getSpec().getTolerations()).isEmpty();
  }

  @Test
  void anOnChangeModelGetsANewJobPerSourceFingerprintWhoseDownloaderChecksIt() {
    Model m = model("llama", "source: " + URL + "\nprefetch: true\nrefreshPolicy: OnChange\n");
    m.getMetadata().setUid("uid-1");
    ModelLayout layout = ModelLayout.of(m, "https://huggingface.co");
    Job v1 = PrefetchJobBuilder.build(m, layout, OperatorSettings.defaults(), "1111111111111111");
    Job v2 = PrefetchJobBuilder.build(m, layout, OperatorSettings.defaults(), "2222222222222222");
    assertThat(v1.getMetadata().getName()).startsWith("llama-prefetch-")
        .isNotEqualTo(v2.getMetadata().getName())
        .isNotEqualTo(PrefetchJobBuilder.jobName("llama", layout.cacheKey(), null));
    Container dl = v2.getSpec().getTemplate().getSpec().getContainers().getFirst();
    assertThat(env(dl).get("MODEL_FILES"))
        .isEqualTo(layout.modelDir() + "/llama-Q4_K_M.gguf " + URL + " - 2222222222222222");
  }

  @Test
  void longModelNamesAreCutSoTheJobNameStaysADnsLabel() {
    String name = PrefetchJobBuilder.jobName("a".repeat(60) + "-b", "0123456789abcdef", null);
    assertThat(name).hasSize(63).endsWith("-prefetch-0123456789").doesNotContain("--");
    assertThat(PrefetchJobBuilder.jobName("x-" + "a".repeat(40) + "-", "0123456789abcdef", null))
        .isEqualTo("x-" + "a".repeat(40) + "-prefetch-0123456789");
  }

  @Test
  void theSharedCacheClaimFollowsTheOperatorSettings() {
    PersistentVolumeClaim pvc = ModelStaging.sharedCacheClaim("ns", OperatorSettings.defaults());
    assertThat(pvc.getMetadata().getName()).isEqualTo("llmkube-model-cache");
    assertThat(pvc.getMetadata().getOwnerReferences()).isNullOrEmpty();
    assertThat(pvc.getSpec().getAccessModes()).containsExactly("ReadWriteOnce");
    assertThat(pvc.getSpec().getResources().getRequests().get("storage").toString()).isEqualTo("100Gi");
  }
}
