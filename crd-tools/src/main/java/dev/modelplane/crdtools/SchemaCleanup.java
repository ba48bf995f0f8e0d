package dev.modelplane.crdtools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Normalises what fabric8's generator emits: integral bounds are written as integers ({@code 65535}, not
 * {@code 65535.0}), and validation rules that Java repeats on a record's field, accessor and constructor parameter
 * appear once.
 */
final class SchemaCleanup {
  private SchemaCleanup() {
  }

  static void apply(JsonNode node) {
    if (node instanceof ObjectNode object) {
      for (var entry : object.properties()) {
        JsonNode value = entry.getValue();
        if (value instanceof DoubleNode number && number.doubleValue() == Math.rint(number.doubleValue())
            && Math.abs(number.doubleValue()) < 1e15) {
          entry.setValue(LongNode.valueOf((long) number.doubleValue()));
        } else if (entry.getKey().equals("x-kubernetes-validations") && value instanceof ArrayNode rules) {
          Set<JsonNode> unique = new LinkedHashSet<>();
          rules.forEach(unique::add);
          rules.removeAll();
          unique.forEach(rules::add);
        } else {
          apply(value);
        }
      }
    } else if (node instanceof ArrayNode array) {
      array.forEach(SchemaCleanup::apply);
    }
  }
}
