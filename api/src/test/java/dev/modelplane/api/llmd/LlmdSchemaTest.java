package dev.modelplane.api.llmd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.api.llmd.v1alpha2.InferenceModelRewrite;
import dev.modelplane.api.llmd.v1alpha2.InferenceObjective;
import dev.modelplane.api.testing.Crds;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * llm-d's {@code llm-d.ai/v1alpha2} kinds have the shapes of the Gateway API Inference Extension's experimental ones:
 * the same schema (apart from the kind's own description), names, scope and columns, under another group.
 */
class LlmdSchemaTest {
  static Stream<Arguments> pairs() {
    return Stream.of(
        Arguments.of(InferenceObjective.class, dev.modelplane.api.gie.v1alpha2.InferenceObjective.class),
        Arguments.of(InferenceModelRewrite.class, dev.modelplane.api.gie.v1alpha2.InferenceModelRewrite.class));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pairs")
  void sameShapeAsTheInferenceExtensionsKindUnderLlmdsGroup(Class<? extends HasMetadata> llmd,
      Class<? extends HasMetadata> gie) {
    JsonNode ours = Crds.crd(llmd).path("spec");
    JsonNode theirs = Crds.crd(gie).path("spec");
    assertThat(ours.path("group").asText()).isEqualTo("llm-d.ai");
    assertThat(HasMetadata.getApiVersion(llmd)).isEqualTo("llm-d.ai/v1alpha2");
    assertThat(ours.path("names")).isEqualTo(theirs.path("names"));
    assertThat(ours.path("scope")).isEqualTo(theirs.path("scope"));
    JsonNode version = ours.path("versions").get(0);
    JsonNode upstreamVersion = theirs.path("versions").get(0);
    assertThat(version.path("name").asText()).isEqualTo("v1alpha2");
    assertThat(version.path("additionalPrinterColumns")).isEqualTo(upstreamVersion.path("additionalPrinterColumns"));
    assertThat(version.path("subresources")).isEqualTo(upstreamVersion.path("subresources"));
    assertThat(withoutDescription(Crds.schema(llmd))).isEqualTo(withoutDescription(Crds.schema(gie)));
    assertThat(Crds.schema(llmd).path("description").asText()).contains("llm-d");
  }

  private static JsonNode withoutDescription(JsonNode schema) {
    ObjectNode copy = schema.deepCopy();
    copy.remove("description");
    return copy;
  }
}
