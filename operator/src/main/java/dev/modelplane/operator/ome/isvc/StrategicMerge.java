package dev.modelplane.operator.ome.isvc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * Kubernetes strategic-merge-patch semantics for pod specs and containers on JSON trees: objects merge key by key;
 * lists whose Kubernetes type declares a patch-merge key merge element by element on that key (containers, volumes,
 * env and the like by {@code name}, volume mounts by {@code mountPath}, ports by {@code containerPort}); every other
 * list, and every scalar, is replaced by the patch's value. The base is never changed.
 */
final class StrategicMerge {
  /** List fields of PodSpec and Container that Kubernetes merges by a key, and the key. */
  static final Map<String, String> MERGE_KEYS = Map.ofEntries(
      Map.entry("containers", "name"), Map.entry("initContainers", "name"),
      Map.entry("ephemeralContainers", "name"), Map.entry("volumes", "name"), Map.entry("env", "name"),
      Map.entry("imagePullSecrets", "name"), Map.entry("resourceClaims", "name"), Map.entry("volumeMounts",
          "mountPath"), Map.entry("volumeDevices", "devicePath"), Map.entry("ports", "containerPort"),
      Map.entry("hostAliases", "ip"), Map.entry("topologySpreadConstraints", "topologyKey"));

  private StrategicMerge() {
  }

  /** {@code patch} merged over {@code base}; either may be null. */
  static JsonNode merge(JsonNode base, JsonNode patch) {
    return merge(base, patch, null);
  }

  private static JsonNode merge(JsonNode base, JsonNode patch, String field) {
    if (patch == null || patch.isMissingNode()) {
      return base == null ? null : base.deepCopy();
    }
    if (base == null || base.isNull() || base.isMissingNode()) {
      return patch.deepCopy();
    }
    if (base.isObject() && patch.isObject()) {
      ObjectNode out = ((ObjectNode) base).deepCopy();
      Iterator<Map.Entry<String, JsonNode>> fields = patch.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> e = fields.next();
        if (e.getValue().isNull()) {
          out.remove(e.getKey());
        } else {
          out.set(e.getKey(), merge(out.get(e.getKey()), e.getValue(), e.getKey()));
        }
      }
      return out;
    }
    String key = field == null ? null : MERGE_KEYS.get(field);
    if (key != null && base.isArray() && patch.isArray()) {
      return mergeList((ArrayNode) base, (ArrayNode) patch, key);
    }
    return patch.deepCopy();
  }

  private static ArrayNode mergeList(ArrayNode base, ArrayNode patch, String key) {
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    base.forEach(e -> out.add(e.deepCopy()));
    for (JsonNode element : patch) {
      JsonNode id = element.get(key);
      int at = -1;
      for (int i = 0; id != null && i < out.size(); i++) {
        if (id.equals(out.get(i).get(key))) {
          at = i;
          break;
        }
      }
      if (at < 0) {
        out.add(element.deepCopy());
      } else {
        out.set(at, merge(out.get(at), element, null));
      }
    }
    return out;
  }
}
