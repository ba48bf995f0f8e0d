package dev.modelplane.router.gatewayapi;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** Kubernetes label selectors ({@code matchLabels} and {@code matchExpressions}) evaluated against a label map. */
final class LabelSelectors {
  private LabelSelectors() {}

  /**
   * Whether {@code labels} satisfy {@code selector}. A missing selector selects nothing, an empty one everything, as
   * in Kubernetes. An unknown operator never matches.
   */
  static boolean matches(JsonNode selector, Map<String, String> labels) {
    if (selector == null || selector.isMissingNode() || selector.isNull()) {
      return false;
    }
    for (Map.Entry<String, JsonNode> entry : selector.path("matchLabels").properties()) {
      if (!entry.getValue().asText().equals(labels.get(entry.getKey()))) {
        return false;
      }
    }
    for (JsonNode expression : Json.list(selector, "matchExpressions")) {
      if (!expressionHolds(expression, labels)) {
        return false;
      }
    }
    return true;
  }

  private static boolean expressionHolds(JsonNode expression, Map<String, String> labels) {
    String key = Json.text(expression, "key", "");
    Set<String> values = new HashSet<>();
    Json.list(expression, "values").forEach(v -> values.add(v.asText()));
    String value = labels.get(key);
    return switch (Json.text(expression, "operator", "")) {
      case "In" -> value != null && values.contains(value);
      case "NotIn" -> value == null || !values.contains(value);
      case "Exists" -> labels.containsKey(key);
      case "DoesNotExist" -> !labels.containsKey(key);
      default -> false;
    };
  }
}
