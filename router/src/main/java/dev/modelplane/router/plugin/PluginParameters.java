package dev.modelplane.router.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code parameters} object of one plugin in an EndpointPickerConfig, read by the plugin's own factory. Absent or
 * {@code null} fields take the caller's default; a value of the wrong type is an error naming the field.
 */
public final class PluginParameters {
  /** No parameters. */
  public static final PluginParameters NONE = new PluginParameters(null);

  private final JsonNode node;

  private PluginParameters(JsonNode node) {
    this.node = node == null || node.isNull() || node.isMissingNode() ? null : node;
  }

  /** Wraps a parameters node ({@code null} for none). */
  public static PluginParameters of(JsonNode node) {
    return node == null ? NONE : new PluginParameters(node);
  }

  /** The raw JSON, {@code null} when there are none. */
  public JsonNode json() {
    return node;
  }

  /** Whether there are no parameters at all. */
  public boolean isEmpty() {
    return node == null || node.isEmpty();
  }

  /** Whether {@code field} is present and not {@code null}. */
  public boolean has(String field) {
    return value(field) != null;
  }

  /** A nested object as parameters of its own (empty when absent). */
  public PluginParameters object(String field) {
    JsonNode v = value(field);
    if (v != null && !v.isObject()) {
      throw new IllegalArgumentException("parameter '" + field + "' must be an object");
    }
    return of(v);
  }

  public int intValue(String field, int fallback) {
    long v = longValue(field, fallback);
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("parameter '" + field + "' must be an integer, got " + value(field));
    }
    return (int) v;
  }

  public long longValue(String field, long fallback) {
    JsonNode v = value(field);
    if (v == null) {
      return fallback;
    }
    if (v.isIntegralNumber() && v.canConvertToLong()) {
      return v.longValue();
    }
    if (v.isTextual()) {
      try {
        return Long.parseLong(v.textValue().trim());
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw new IllegalArgumentException("parameter '" + field + "' must be an integer, got " + v);
  }

  public double doubleValue(String field, double fallback) {
    JsonNode v = value(field);
    if (v == null) {
      return fallback;
    }
    if (v.isNumber()) {
      return v.doubleValue();
    }
    if (v.isTextual()) {
      try {
        return Double.parseDouble(v.textValue().trim());
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw new IllegalArgumentException("parameter '" + field + "' must be a number, got " + v);
  }

  public boolean boolValue(String field, boolean fallback) {
    JsonNode v = value(field);
    if (v == null) {
      return fallback;
    }
    if (v.isBoolean()) {
      return v.booleanValue();
    }
    if (v.isTextual() && (v.textValue().equalsIgnoreCase("true") || v.textValue().equalsIgnoreCase("false"))) {
      return Boolean.parseBoolean(v.textValue());
    }
    throw new IllegalArgumentException("parameter '" + field + "' must be true or false, got " + v);
  }

  /** A string; {@code fallback} when absent or empty. Numbers and booleans are accepted as their text. */
  public String text(String field, String fallback) {
    JsonNode v = value(field);
    if (v == null) {
      return fallback;
    }
    if (!v.isValueNode()) {
      throw new IllegalArgumentException("parameter '" + field + "' must be a string, got " + v);
    }
    return v.asText().isEmpty() ? fallback : v.asText();
  }

  /** A Go duration ({@code 200ms}, {@code 1m30s}); {@code fallback} when absent or empty. */
  public java.time.Duration duration(String field, java.time.Duration fallback) {
    String text = text(field, null);
    if (text == null) {
      return fallback;
    }
    return Quantities.duration(text, "parameter '" + field + "'");
  }

  /** A list of strings; empty when absent. */
  public List<String> textList(String field) {
    JsonNode v = value(field);
    if (v == null) {
      return List.of();
    }
    if (!v.isArray()) {
      throw new IllegalArgumentException("parameter '" + field + "' must be a list, got " + v);
    }
    List<String> out = new ArrayList<>();
    v.forEach(item -> out.add(item.asText()));
    return out;
  }

  /** A list of objects, each as parameters; empty when absent. */
  public List<PluginParameters> objectList(String field) {
    JsonNode v = value(field);
    if (v == null) {
      return List.of();
    }
    if (!v.isArray()) {
      throw new IllegalArgumentException("parameter '" + field + "' must be a list, got " + v);
    }
    List<PluginParameters> out = new ArrayList<>();
    v.forEach(item -> out.add(of(item)));
    return out;
  }

  /**
   * Refuses any field not in {@code known}, as llm-d's strict decoding does: a misspelt parameter is an error instead
   * of a silently applied default.
   */
  public void requireOnly(String... known) {
    if (node == null) {
      return;
    }
    if (!node.isObject()) {
      throw new IllegalArgumentException("parameters must be an object, got " + node);
    }
    List<String> names = List.of(known);
    node.fieldNames().forEachRemaining(f -> {
      if (!names.contains(f)) {
        throw new IllegalArgumentException("unknown parameter '" + f + "' (known: " + String.join(", ", names) + ")");
      }
    });
  }

  private JsonNode value(String field) {
    JsonNode v = node == null ? null : node.get(field);
    return v == null || v.isNull() ? null : v;
  }

  @Override
  public String toString() {
    return node == null ? "{}" : node.toString();
  }
}
