package dev.modelplane.operator.common;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpecOrAnnotationUpdatesTest {
  private static final SpecOrAnnotationUpdates FILTER = new SpecOrAnnotationUpdates();

  private static ConfigMap resource(long generation, Map<String, String> annotations, List<String> finalizers) {
    return new ConfigMapBuilder().withNewMetadata().withName("qwen").withGeneration(generation)
        .withAnnotations(annotations).withFinalizers(finalizers).withResourceVersion(String.valueOf(generation))
        .endMetadata().build();
  }

  @Test
  void aSettingInAnAnnotationIsReconciledWithoutANewGeneration() {
    ConfigMap before = resource(3, Map.of(), List.of("f"));
    assertThat(FILTER.accept(resource(3, Map.of("modelplane.dev/tokenizer", "configmap:tok"), List.of("f")),
        before)).isTrue();
    assertThat(FILTER.accept(resource(4, Map.of(), List.of("f")), before)).as("a new generation").isTrue();
    assertThat(FILTER.accept(resource(3, Map.of(), List.of()), before)).as("a finalizer change").isTrue();
    ConfigMap deleted = resource(3, Map.of(), List.of("f"));
    deleted.getMetadata().setDeletionTimestamp("2026-11-28T00:00:00Z");
    assertThat(FILTER.accept(deleted, before)).as("a deletion mark").isTrue();
  }

  @Test
  void statusWritesAndKubectlsOwnCopyAreNot() {
    ConfigMap before = resource(3, Map.of("a", "1"), List.of("f"));
    ConfigMap statusWrite = resource(3, Map.of("a", "1"), List.of("f"));
    statusWrite.getMetadata().setResourceVersion("99");
    assertThat(FILTER.accept(statusWrite, before)).isFalse();
    assertThat(FILTER.accept(resource(3, Map.of("a", "1",
        "kubectl.kubernetes.io/last-applied-configuration", "{}"), List.of("f")), before)).isFalse();
  }
}
