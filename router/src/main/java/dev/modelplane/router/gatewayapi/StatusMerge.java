package dev.modelplane.router.gatewayapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Helpers for the status writer: merging our {@code status.parents} entries with other controllers', moving a
 * condition's {@code lastTransitionTime} only when the condition changes, and telling a no-op write apart.
 */
public final class StatusMerge {
  private static final String TIME = "lastTransitionTime";

  private StatusMerge() {}

  /**
   * The stored {@code status.parents} list with our entries (those whose {@code controllerName} is
   * {@code controllerName}) replaced by {@code ours}. Other controllers' entries are kept in their order, ours follow.
   * When {@code ours} is not empty, the placeholder entry GIE writes for a pool no parent references yet
   * ({@code parentRef} of kind {@code Status} named {@code default}) is dropped.
   *
   * @param storedParents the stored list; null, missing or not an array counts as empty
   * @param ours our desired entries
   * @param controllerName our controller name
   * @return a new array; the inputs are not changed
   */
  public static ArrayNode mergeParents(JsonNode storedParents, List<ObjectNode> ours, String controllerName) {
    ArrayNode merged = Json.NODES.arrayNode();
    if (storedParents != null && storedParents.isArray()) {
      for (JsonNode entry : storedParents) {
        if (controllerName.equals(Json.text(entry, "controllerName", null))) {
          continue;
        }
        if (!ours.isEmpty() && isPlaceholder(entry)) {
          continue;
        }
        merged.add(entry.deepCopy());
      }
    }
    ours.forEach(entry -> merged.add(entry.deepCopy()));
    return merged;
  }

  private static boolean isPlaceholder(JsonNode entry) {
    JsonNode ref = entry.path("parentRef");
    return "Status".equals(Json.text(ref, "kind", null)) && "default".equals(Json.text(ref, "name", null));
  }

  /**
   * Gives each condition in {@code desired} the {@code lastTransitionTime} of the stored condition of the same type at
   * the same place when its status is unchanged, and {@code now} (RFC 3339, whole seconds) when it is new or its status
   * changed. Places correspond by field name; array elements by {@code parentRef} (and {@code controllerName}) for
   * route and pool parents, by {@code name} for listeners, else by position.
   *
   * @param stored the stored status (or part of it); may be null
   * @param desired the desired status, changed in place
   * @param now the time of this write
   * @return {@code desired}
   */
  public static JsonNode carryTransitionTimes(JsonNode stored, JsonNode desired, Instant now) {
    carry(stored, desired, now.truncatedTo(ChronoUnit.SECONDS).toString());
    return desired;
  }

  private static void carry(JsonNode stored, JsonNode desired, String now) {
    if (desired == null) {
      return;
    }
    if (desired.isObject()) {
      for (Map.Entry<String, JsonNode> field : desired.properties()) {
        JsonNode storedField = stored == null ? null : stored.get(field.getKey());
        if ("conditions".equals(field.getKey()) && field.getValue().isArray()) {
          carryConditions(storedField, field.getValue(), now);
        } else {
          carry(storedField, field.getValue(), now);
        }
      }
    } else if (desired.isArray()) {
      for (int i = 0; i < desired.size(); i++) {
        carry(counterpart(stored, desired.get(i), i), desired.get(i), now);
      }
    }
  }

  /** The element of the stored array that stands for the same thing as {@code element} of the desired one. */
  private static JsonNode counterpart(JsonNode stored, JsonNode element, int index) {
    if (stored == null || !stored.isArray()) {
      return null;
    }
    if (element.has("parentRef")) {
      for (JsonNode candidate : stored) {
        if (element.get("parentRef").equals(candidate.get("parentRef"))
            && Json.text(element, "controllerName", "").equals(Json.text(candidate, "controllerName", ""))) {
          return candidate;
        }
      }
      return null;
    }
    if (element.has("name")) {
      for (JsonNode candidate : stored) {
        if (element.get("name").equals(candidate.get("name"))) {
          return candidate;
        }
      }
      return null;
    }
    return index < stored.size() ? stored.get(index) : null;
  }

  private static void carryConditions(JsonNode stored, JsonNode desired, String now) {
    for (JsonNode condition : desired) {
      if (!condition.isObject()) {
        continue;
      }
      String type = Json.text(condition, "type", "");
      String time = now;
      if (stored != null && stored.isArray()) {
        for (JsonNode old : stored) {
          if (type.equals(Json.text(old, "type", null))
              && Json.text(condition, "status", "").equals(Json.text(old, "status", ""))) {
            time = Json.text(old, TIME, now);
            break;
          }
        }
      }
      ((ObjectNode) condition).put(TIME, time);
    }
  }

  /**
   * Whether {@code a} and {@code b} are equal once every {@code lastTransitionTime} is left out; numbers compare by
   * value (so a stored {@code 1} equals a built {@code 1L}). Two nulls are equal.
   */
  public static boolean sameIgnoringTimes(JsonNode a, JsonNode b) {
    if (a == null || b == null) {
      return a == b;
    }
    return withoutTimes(a).equals((x, y) -> x.isNumber() && y.isNumber()
        ? x.decimalValue().compareTo(y.decimalValue()) : x.equals(y) ? 0 : 1, withoutTimes(b));
  }

  private static JsonNode withoutTimes(JsonNode node) {
    JsonNode copy = node.deepCopy();
    strip(copy);
    return copy;
  }

  private static void strip(JsonNode node) {
    if (node.isObject()) {
      ((ObjectNode) node).remove(TIME);
      List<JsonNode> children = new ArrayList<>();
      node.forEach(children::add);
      children.forEach(StatusMerge::strip);
    } else if (node.isArray()) {
      node.forEach(StatusMerge::strip);
    }
  }
}
