package dev.modelplane.router.gatewayapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/** Reading the loosely typed Gateway API objects as JSON trees, with the defaults their schemas declare. */
final class Json {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private Json() {}

  /** The whole object (apiVersion, kind, metadata, spec, status) as a tree. */
  static JsonNode tree(GenericKubernetesResource resource) {
    return resource == null ? MissingNode.getInstance() : MAPPER.valueToTree(resource);
  }

  /** The text of {@code node.field}, or {@code fallback} when it is absent, null or empty. */
  static String text(JsonNode node, String field, String fallback) {
    JsonNode value = node == null ? null : node.get(field);
    if (value == null || value.isNull() || !value.isValueNode()) {
      return fallback;
    }
    String text = value.asText();
    return text.isEmpty() ? fallback : text;
  }

  /** Like {@link #text} but an explicitly empty string stays empty (for API groups, where "" is the core group). */
  static String textKeepEmpty(JsonNode node, String field, String fallback) {
    JsonNode value = node == null ? null : node.get(field);
    return value == null || value.isNull() || !value.isValueNode() ? fallback : value.asText();
  }

  /** The elements of the array {@code node.field}; empty when absent. */
  static List<JsonNode> list(JsonNode node, String field) {
    List<JsonNode> out = new ArrayList<>();
    JsonNode value = node == null ? null : node.get(field);
    if (value != null && value.isArray()) {
      value.forEach(out::add);
    }
    return out;
  }

  /** {@code namespace/name} of an object. */
  static String key(JsonNode object) {
    JsonNode meta = object.path("metadata");
    return text(meta, "namespace", "") + "/" + text(meta, "name", "");
  }

  static String namespace(JsonNode object) {
    return text(object.path("metadata"), "namespace", "");
  }

  static String name(JsonNode object) {
    return text(object.path("metadata"), "name", "");
  }

  /** {@code metadata.generation}, 0 when the object has none. */
  static long generation(JsonNode object) {
    return object.path("metadata").path("generation").asLong(0);
  }

  /** {@code metadata.creationTimestamp}; objects without one sort as the newest. */
  static Instant created(JsonNode object) {
    String text = text(object.path("metadata"), "creationTimestamp", null);
    if (text == null) {
      return Instant.MAX;
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      return Instant.MAX;
    }
  }

  static ObjectNode object() {
    return NODES.objectNode();
  }
}
