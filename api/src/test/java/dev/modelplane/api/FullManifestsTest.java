package dev.modelplane.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.api.testing.Crds;
import dev.modelplane.api.testing.Manifests;
import dev.modelplane.api.testing.SchemaValidator;
import dev.modelplane.api.testing.TypePaths;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * For every kind, src/test/resources/full/&lt;group&gt;_&lt;plural&gt;.yaml sets every field of our own types (spec
 * and status). It must be valid against the CRD, survive a round trip through the Java types unchanged, and leave
 * no field of the types unset — so a field the types drop, rename or mistype fails here.
 */
class FullManifestsTest {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  static Stream<Class<? extends HasMetadata>> kinds() {
    return ApiResources.resourceClasses().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kinds")
  void fullManifestSetsEveryFieldAndRoundTrips(Class<? extends HasMetadata> type) {
    Path file = Crds.repoRoot().resolve("api/src/test/resources/full").resolve(ApiResources.crdFileName(type));
    assertThat(Files.exists(file)).as("a full manifest for %s at %s", type.getSimpleName(), file).isTrue();
    List<JsonNode> docs = Manifests.documents(file);
    Set<String> covered = new TreeSet<>();
    for (JsonNode doc : docs) {
      assertThat(Manifests.classFor(doc)).as("kind of %s", file).contains(type);
      assertThat(SchemaValidator.validate(Crds.schema(type), doc)).as("schema errors in %s", file).isEmpty();
      HasMetadata typed = SERIALIZATION.convertValue(doc, type);
      JsonNode back = SERIALIZATION.unmarshal(SERIALIZATION.asJson(typed), JsonNode.class);
      assertThat(back).as("round trip of %s", file).isEqualTo(SERIALIZATION.unmarshal(doc.toString(), JsonNode.class));
      covered.addAll(TypePaths.covered(type, doc));
    }
    Set<String> missing = new TreeSet<>(TypePaths.leaves(type));
    missing.removeAll(covered);
    assertThat(missing).as("fields of %s that %s never sets", type.getSimpleName(), file).isEmpty();
  }
}
