package dev.modelplane.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.operator.OperatorSettings.CacheMode;
import dev.modelplane.operator.OperatorSettings.ModelCacheSettings;
import dev.modelplane.operator.modelsource.InspectionPolicy;
import dev.modelplane.operator.ome.storage.ModelStorageSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OperatorSettingsTest {
  @Test
  void theDefaultsAreTheFlagsDefaults() {
    OperatorSettings s = OperatorSettings.defaults();
    assertThat(s.runtimeImages()).isEmpty();
    assertThat(s.modelCache()).isEqualTo(ModelCacheSettings.defaults());
    assertThat(s.initContainerImage()).isEqualTo("docker.io/curlimages/curl:8.18.0");
    assertThat(s.defaultFsGroup()).isEqualTo(102);
    assertThat(s.defaultRunAsUser()).isEqualTo(1000);
    assertThat(s.defaultRunAsGroup()).isEqualTo(1000);
    assertThat(s.huggingFaceEndpoint()).isEqualTo("https://huggingface.co");
    assertThat(s.allowedHostPathRoots()).isEmpty();
    assertThat(s.emitScrapeAnnotations()).isFalse();
    assertThat(s.createPriorityClasses()).isFalse();
    assertThat(s.checkNodeCapacity()).isTrue();
    assertThat(s.namespaces()).isEmpty();
    assertThat(s.useSsa()).isTrue();
    assertThat(s.ggufTimeout()).isEqualTo(Duration.ofSeconds(20));
    assertThat(s.inspectModels()).isTrue();
    assertThat(s.modelInspection()).isEqualTo(InspectionPolicy.defaults());
    assertThat(s.revalidationInterval()).isEqualTo(Duration.ofMinutes(30));
    assertThat(s.pyrraSlo()).isFalse();
    assertThat(s.modelAgentNamespace()).isEqualTo("modelplane-system");
    assertThat(s.omeServing()).isEqualTo(OmeServingSettings.defaults());
    assertThat(s.modelService()).isEqualTo(ModelServiceSettings.defaults());
    assertThat(s.benchmark()).isEqualTo(BenchmarkSettings.defaults());
    assertThat(s.modelStorage()).isEqualTo(ModelStorageSettings.defaults());
  }

  @Test
  void theBuilderSetsWhatItIsGivenAndStartsFromSettingsAsTheyAre() {
    ModelCacheSettings perService = new ModelCacheSettings(true, CacheMode.PER_SERVICE, "10Gi", "ReadWriteMany",
        "fast");
    OperatorSettings s = OperatorSettings.builder().runtimeImages(Map.of("vllm", "v:1")).modelCache(perService)
        .huggingFaceEndpoint("https://hub.example/").allowedHostPathRoots(List.of("/data")).checkNodeCapacity(false)
        .useSsa(false).inspectModels(false).namespaces(Set.of("a", "b")).defaultRunAsUser(2000).build();
    assertThat(s.runtimeImages()).containsExactly(Map.entry("vllm", "v:1"));
    assertThat(s.modelCache()).isEqualTo(perService);
    assertThat(s.huggingFaceEndpoint()).isEqualTo("https://hub.example");
    assertThat(s.checkNodeCapacity()).isFalse();
    assertThat(s.useSsa()).isFalse();
    assertThat(s.inspectModels()).isFalse();
    assertThat(s.defaultRunAsUser()).isEqualTo(2000);
    assertThat(s.toBuilder().build()).isEqualTo(s);
    assertThat(s.toBuilder().pyrraSlo(true).build()).isEqualTo(s.withPyrraSlo(true));
    assertThat(s.withCreatePriorityClasses(true).createPriorityClasses()).isTrue();
    assertThat(s.withCreatePriorityClasses(true).withCreatePriorityClasses(false)).isEqualTo(s);
  }

  @Test
  void aRootUserAndANegativeRevalidationIntervalAreRefused() {
    assertThatThrownBy(() -> OperatorSettings.builder().defaultRunAsUser(0).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> OperatorSettings.defaults().withRevalidationInterval(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
