package dev.modelplane.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.api.testing.Crds;
import dev.modelplane.api.testing.Manifests;
import dev.modelplane.api.testing.SchemaValidator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every sample under deploy/samples is valid against its generated CRD and survives a trip through our Java types
 * without losing or changing a field. Samples are self-contained, so they may also hold built-in Kubernetes objects
 * (claims, Deployments); the API server checks those (ManifestsOnApiServerTest, the samples' up test).
 */
class SamplesTest {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  /** The Kubernetes API versions samples may use beside modelplane's kinds. */
  private static final Set<String> BUILT_IN = Set.of("v1", "apps/v1");

  static Stream<Path> samples() {
    return Manifests.yamlFiles(Crds.repoRoot().resolve("deploy/samples")).stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("samples")
  void sampleIsValidAndRoundTripsWithoutLoss(Path file) {
    List<JsonNode> docs = Manifests.documents(file);
    assertThat(docs).as("documents in %s", file).isNotEmpty();
    for (JsonNode doc : docs) {
      if (BUILT_IN.contains(doc.path("apiVersion").asText())) {
        continue;
      }
      Class<? extends HasMetadata> type = Manifests.classFor(doc)
          .orElseThrow(() -> new AssertionError(file + ": not a modelplane kind: " + doc.path("apiVersion") + "/"
              + doc.path("kind")));
      String name = file.getFileName() + " " + doc.path("metadata").path("name").asText();
      assertThat(SchemaValidator.validate(Crds.schema(type), doc)).as("schema errors in %s", name).isEmpty();

      HasMetadata typed = SERIALIZATION.convertValue(doc, type);
      assertThat(typed).isInstanceOf(type);
      // Compared as JSON text re-read, so that 1 (int) and 1 (long) count as the same value.
      JsonNode back = canonical(SERIALIZATION.asJson(typed));
      assertThat(back).as("round trip of %s", name).isEqualTo(canonical(doc.toString()));
    }
  }

  private static JsonNode canonical(String json) {
    return SERIALIZATION.unmarshal(json, JsonNode.class);
  }

  @Test
  void everyKindHasASample() {
    Set<Class<? extends HasMetadata>> seen = new HashSet<>();
    samples().forEach(f -> Manifests.documents(f).forEach(d -> Manifests.classFor(d).ifPresent(seen::add)));
    assertThat(seen).containsExactlyInAnyOrderElementsOf(ApiResources.resourceClasses());
  }
}
