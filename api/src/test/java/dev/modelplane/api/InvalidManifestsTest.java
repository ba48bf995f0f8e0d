package dev.modelplane.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.api.testing.Crds;
import dev.modelplane.api.testing.Manifests;
import dev.modelplane.api.testing.SchemaValidator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every manifest under src/test/resources/invalid is rejected by its CRD's schema with the error(s) named in its
 * {@code # expect: <text>} header lines, and with no other error. This is the message a user sees from
 * {@code kubectl apply}.
 */
class InvalidManifestsTest {
  static Stream<Path> invalidManifests() {
    return Manifests.yamlFiles(Crds.repoRoot().resolve("api/src/test/resources/invalid")).stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidManifests")
  void isRejectedWithTheExpectedMessage(Path file) throws IOException {
    List<String> expected = Files.readAllLines(file).stream()
        .filter(l -> l.startsWith("# expect:"))
        .map(l -> l.substring("# expect:".length()).strip())
        .toList();
    assertThat(expected).as("%s needs at least one '# expect:' line", file).isNotEmpty();
    List<JsonNode> docs = Manifests.documents(file);
    assertThat(docs).hasSize(1);
    JsonNode doc = docs.get(0);
    var type = Manifests.classFor(doc).orElseThrow();
    List<String> errors = SchemaValidator.validate(Crds.schema(type), doc);
    assertThat(errors).as("errors for %s", file).hasSameSizeAs(expected);
    for (String want : expected) {
      assertThat(errors).as("errors for %s", file).anySatisfy(e -> assertThat(e).contains(want));
    }
  }
}
