package dev.modelplane.crdtools;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Validation for embedded Kubernetes types whose fabric8 model carries none, so our CRDs validate them the way the
 * apiserver validates the built-in originals.
 */
final class KnownSchemas {
  static final String CONDITION = "io.fabric8.kubernetes.api.model.Condition";

  private KnownSchemas() {
  }

  /** Applies the rules of a known type to its schema; returns false when the type is not known. */
  static boolean apply(Class<?> type, ObjectNode schema) {
    if (type.getName().equals(CONDITION)) {
      condition(schema);
      return true;
    }
    return false;
  }

  /** The rules of {@code metav1.Condition}. */
  private static void condition(ObjectNode schema) {
    schema.put("description", "One aspect of the current state of the object, in the standard Kubernetes form.");
    ObjectNode props = (ObjectNode) schema.get("properties");
    if (props == null) {
      return;
    }
    set(props, "type", "The kind of condition, in CamelCase or as a qualified name (e.g. Ready).",
        o -> o.put("maxLength", 316).put("pattern",
            "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$"));
    set(props, "status", "Whether the condition holds: True, False or Unknown.",
        o -> o.putArray("enum").add("True").add("False").add("Unknown"));
    set(props, "reason", "A CamelCase word for the cause of the last transition, for machines.",
        o -> o.put("minLength", 1).put("maxLength", 1024).put("pattern", "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$"));
    set(props, "message", "A sentence about the last transition, for people.", o -> o.put("maxLength", 32768));
    set(props, "lastTransitionTime", "When the status last changed.", o -> o.put("format", "date-time"));
    set(props, "observedGeneration", "The metadata.generation the condition was computed from.",
        o -> o.put("minimum", 0).put("format", "int64"));
    ArrayNode required = schema.putArray("required");
    for (String name : new String[] {"lastTransitionTime", "message", "reason", "status", "type"}) {
      required.add(name);
    }
  }

  private static void set(ObjectNode props, String name, String description,
      java.util.function.Consumer<ObjectNode> rules) {
    if (props.get(name) instanceof ObjectNode field) {
      field.put("description", description);
      rules.accept(field);
    }
  }
}
