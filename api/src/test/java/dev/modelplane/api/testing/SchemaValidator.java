package dev.modelplane.api.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Validates an object against a CRD's structural OpenAPI schema the way kube-apiserver does for the keywords CRDs
 * may use: type, enum, bounds, lengths, patterns, item and property counts, required fields, and (as with
 * {@code kubectl --validate=strict}) unknown fields. Messages follow the apiserver's wording. CEL rules are not
 * evaluated here; the control-plane tests cover them on a real apiserver.
 */
public final class SchemaValidator {
  private final List<String> errors = new ArrayList<>();

  private SchemaValidator() {
  }

  /** Errors for {@code object} (a whole custom resource) against the CRD version's {@code openAPIV3Schema}. */
  public static List<String> validate(JsonNode schema, JsonNode object) {
    SchemaValidator validator = new SchemaValidator();
    validator.check(schema, object, "");
    return validator.errors;
  }

  private void check(JsonNode schema, JsonNode value, String path) {
    if (value == null || value.isNull()) {
      if (!schema.path("nullable").asBoolean(false)) {
        errors.add(path + ": Invalid value: \"null\": " + path + " in body must be of type "
            + schema.path("type").asText("object"));
      }
      return;
    }
    if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
      if (!value.isIntegralNumber() && !value.isTextual()) {
        errors.add(path + ": Invalid value: " + value + ": " + path + " in body must be of type int-or-string");
      }
      return;
    }
    String type = schema.path("type").asText("");
    if (!type.isEmpty() && !hasType(value, type)) {
      errors.add(path + ": Invalid value: \"" + kindOf(value) + "\": " + path + " in body must be of type " + type
          + ": \"" + kindOf(value) + "\"");
      return;
    }
    checkEnum(schema, value, path);
    checkNumber(schema, value, path);
    checkString(schema, value, path);
    if (value.isArray()) {
      checkArray(schema, value, path);
    } else if (value.isObject()) {
      checkObject(schema, value, path);
    }
  }

  private void checkEnum(JsonNode schema, JsonNode value, String path) {
    JsonNode allowed = schema.get("enum");
    if (allowed == null) {
      return;
    }
    for (JsonNode option : allowed) {
      if (option.equals(value) || (option.isNumber() && value.isNumber()
          && option.decimalValue().compareTo(value.decimalValue()) == 0)) {
        return;
      }
    }
    List<String> quoted = new ArrayList<>();
    // The apiserver quotes every supported value, numbers included ("3", "6", "8").
    allowed.forEach(o -> quoted.add("\"" + o.asText() + "\""));
    errors.add(path + ": Unsupported value: " + value + ": supported values: " + String.join(", ", quoted));
  }

  private void checkNumber(JsonNode schema, JsonNode value, String path) {
    if (!value.isNumber()) {
      return;
    }
    if (schema.has("minimum") && value.decimalValue().compareTo(schema.get("minimum").decimalValue()) < 0) {
      errors.add(path + ": Invalid value: " + value + ": " + path + " in body should be greater than or equal to "
          + schema.get("minimum"));
    }
    if (schema.has("maximum") && value.decimalValue().compareTo(schema.get("maximum").decimalValue()) > 0) {
      errors.add(path + ": Invalid value: " + value + ": " + path + " in body should be less than or equal to "
          + schema.get("maximum"));
    }
  }

  private void checkString(JsonNode schema, JsonNode value, String path) {
    if (!value.isTextual()) {
      return;
    }
    String text = value.asText();
    int length = text.codePointCount(0, text.length());
    if (schema.has("maxLength") && length > schema.get("maxLength").asInt()) {
      errors.add(path + ": Too long: may not be more than " + schema.get("maxLength").asInt() + " bytes");
    }
    if (schema.has("minLength") && length < schema.get("minLength").asInt()) {
      errors.add(path + ": Invalid value: \"" + text + "\": " + path + " in body should be at least "
          + schema.get("minLength").asInt() + " chars long");
    }
    if (schema.has("pattern") && !Pattern.compile(schema.get("pattern").asText()).matcher(text).find()) {
      errors.add(path + ": Invalid value: \"" + text + "\": " + path + " in body should match '"
          + schema.get("pattern").asText() + "'");
    }
  }

  private void checkArray(JsonNode schema, JsonNode value, String path) {
    if (schema.has("maxItems") && value.size() > schema.get("maxItems").asInt()) {
      errors.add(path + ": Too many: " + value.size() + ": must have at most " + schema.get("maxItems").asInt()
          + " items");
    }
    if (schema.has("minItems") && value.size() < schema.get("minItems").asInt()) {
      errors.add(path + ": Invalid value: " + value.size() + ": " + path + " in body should have at least "
          + schema.get("minItems").asInt() + " items");
    }
    JsonNode items = schema.get("items");
    for (int i = 0; i < value.size(); i++) {
      if (items != null) {
        check(items, value.get(i), path + "[" + i + "]");
      }
    }
    if ("map".equals(schema.path("x-kubernetes-list-type").asText()) && schema.has("x-kubernetes-list-map-keys")) {
      Set<List<JsonNode>> seen = new HashSet<>();
      for (int i = 0; i < value.size(); i++) {
        List<JsonNode> key = new ArrayList<>();
        for (JsonNode k : schema.get("x-kubernetes-list-map-keys")) {
          key.add(value.get(i).get(k.asText()));
        }
        if (!seen.add(key)) {
          errors.add(path + "[" + i + "]: Duplicate value: " + key);
        }
      }
    }
    if ("set".equals(schema.path("x-kubernetes-list-type").asText())) {
      Set<JsonNode> seen = new HashSet<>();
      for (int i = 0; i < value.size(); i++) {
        if (!seen.add(value.get(i))) {
          errors.add(path + "[" + i + "]: Duplicate value: " + value.get(i));
        }
      }
    }
  }

  private void checkObject(JsonNode schema, JsonNode value, String path) {
    if (schema.has("maxProperties") && value.size() > schema.get("maxProperties").asInt()) {
      errors.add(path + ": Too many: " + value.size() + ": must have at most " + schema.get("maxProperties").asInt()
          + " items");
    }
    for (JsonNode required : schema.path("required")) {
      if (!value.has(required.asText())) {
        errors.add(join(path, required.asText()) + ": Required value");
      }
    }
    JsonNode properties = schema.get("properties");
    JsonNode additional = schema.get("additionalProperties");
    boolean preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
    boolean embedded = schema.path("x-kubernetes-embedded-resource").asBoolean(false);
    for (var entry : value.properties()) {
      String child = join(path, entry.getKey());
      if (properties != null && properties.has(entry.getKey())) {
        check(properties.get(entry.getKey()), entry.getValue(), child);
      } else if (additional != null && additional.isObject()) {
        check(additional, entry.getValue(), child);
      } else if (path.isEmpty() && (entry.getKey().equals("apiVersion") || entry.getKey().equals("kind")
          || entry.getKey().equals("metadata"))) {
        continue;
      } else if (embedded && (entry.getKey().equals("apiVersion") || entry.getKey().equals("kind")
          || entry.getKey().equals("metadata"))) {
        continue;
      } else if (!preserve && !(additional != null && additional.asBoolean(false))) {
        errors.add(child + ": unknown field \"" + child + "\"");
      }
    }
  }

  private static boolean hasType(JsonNode value, String type) {
    return switch (type) {
      case "object" -> value.isObject();
      case "array" -> value.isArray();
      case "string" -> value.isTextual();
      case "integer" -> value.isIntegralNumber() || (value.isNumber() && value.asDouble() == Math.rint(value.asDouble()));
      case "number" -> value.isNumber();
      case "boolean" -> value.isBoolean();
      default -> true;
    };
  }

  private static String kindOf(JsonNode value) {
    if (value.isTextual()) {
      return "string";
    }
    if (value.isIntegralNumber()) {
      return "integer";
    }
    if (value.isNumber()) {
      return "number";
    }
    if (value.isBoolean()) {
      return "boolean";
    }
    return value.isArray() ? "array" : "object";
  }

  private static String join(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }
}
