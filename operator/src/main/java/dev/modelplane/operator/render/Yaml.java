package dev.modelplane.operator.render;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.client.utils.Serialization;

/** Kubernetes objects as kubectl-style YAML documents: {@code ---} first, strings quoted only where needed. */
public final class Yaml {
  private static final YAMLMapper MAPPER = new YAMLMapper(YAMLFactory.builder()
      .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
      .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
      .disable(YAMLGenerator.Feature.SPLIT_LINES)
      .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
      .build());

  private Yaml() {
  }

  /** One YAML document starting with {@code ---}. */
  public static String write(Object object) {
    try {
      JsonNode tree = Serialization.jsonMapper().valueToTree(object);
      return MAPPER.writeValueAsString(tree);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write " + object.getClass().getSimpleName() + " as YAML", e);
    }
  }
}
