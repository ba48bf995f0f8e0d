package dev.modelplane.cli.user;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import dev.modelplane.common.text.EditDistance;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Field paths of a Jackson error, and the known field a mistyped one most likely meant. */
final class FieldSuggestion {
  /** How deep below the mistyped field's parent a same-named field is looked for. */
  private static final int DEPTH = 3;

  private FieldSuggestion() {
  }

  /** {@code spec.containers[0].name} from Jackson's reference chain (without a leading class). */
  static String path(List<JsonMappingException.Reference> references) {
    StringBuilder out = new StringBuilder();
    for (JsonMappingException.Reference r : references) {
      if (r.getFieldName() != null) {
        out.append(out.isEmpty() ? "" : ".").append(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        out.append('[').append(r.getIndex()).append(']');
      }
    }
    return out.toString();
  }

  /**
   * The full path of the field {@code name} under {@code parent} most likely meant: a field below the parent whose
   * path spelled together is the name ({@code containerSecurityContext} → {@code container.securityContext}), else
   * a sibling a few letters away, else a field below the parent of that name.
   */
  static Optional<String> suggest(ObjectMapper mapper, Class<?> root, String parent, String name,
      Collection<Object> known) {
    String prefix = parent.isEmpty() ? "" : parent + ".";
    JavaType at = typeAt(mapper, mapper.constructType(root), parent);
    List<String> below = new ArrayList<>();
    if (at != null) {
      collect(mapper, at, "", DEPTH, below);
    }
    String wanted = name.toLowerCase(Locale.ROOT);
    return below.stream().filter(p -> p.contains(".") && p.replace(".", "").toLowerCase(Locale.ROOT).equals(wanted))
        .findFirst()
        .or(() -> closest(name, known.stream().map(String::valueOf).toList()))
        .or(() -> below.stream().filter(p -> p.substring(p.lastIndexOf('.') + 1).equalsIgnoreCase(name))
            .findFirst())
        .map(p -> prefix + p);
  }

  /** The candidate nearest {@code word} by edit distance, if it is near enough to be a typo of it. */
  static Optional<String> closest(String word, List<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      int d = EditDistance.between(word.toLowerCase(Locale.ROOT), c.toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        best = c;
        bestDistance = d;
      }
    }
    return best != null && bestDistance <= Math.max(2, word.length() / 3) ? Optional.of(best) : Optional.empty();
  }

  /** "an integer", "a string", "one of a, b" … for a target type. */
  static String typeName(Class<?> type) {
    if (type.isEnum()) {
      return "one of " + String.join(", ", enumValues(type));
    }
    if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
      return "an integer";
    }
    if (type == double.class || type == Double.class || type == float.class || type == Float.class) {
      return "a number";
    }
    if (type == boolean.class || type == Boolean.class) {
      return "true or false";
    }
    if (type == String.class) {
      return "a string";
    }
    if (Collection.class.isAssignableFrom(type) || type.isArray()) {
      return "a list";
    }
    return "an object (" + type.getSimpleName() + ")";
  }

  /** The values an enum is written as in YAML (its {@code @JsonProperty} names, else its constants' names). */
  static List<String> enumValues(Class<?> type) {
    List<String> values = new ArrayList<>();
    for (java.lang.reflect.Field f : type.getFields()) {
      if (f.isEnumConstant()) {
        var property = f.getAnnotation(com.fasterxml.jackson.annotation.JsonProperty.class);
        values.add(property != null && !property.value().isEmpty() ? property.value() : f.getName());
      }
    }
    return values;
  }

  private static JavaType typeAt(ObjectMapper mapper, JavaType type, String path) {
    JavaType at = type;
    for (String part : path.isEmpty() ? new String[0] : path.replaceAll("\\[\\d+]", "").split("\\.")) {
      at = properties(mapper, at).stream().filter(p -> p.getName().equals(part)).findFirst()
          .map(p -> element(p.getPrimaryType())).orElse(null);
      if (at == null) {
        return null;
      }
    }
    return at;
  }

  private static void collect(ObjectMapper mapper, JavaType type, String prefix, int depth, List<String> out) {
    if (depth == 0) {
      return;
    }
    for (BeanPropertyDefinition p : properties(mapper, type)) {
      String path = prefix + p.getName();
      out.add(path);
      collect(mapper, element(p.getPrimaryType()), path + ".", depth - 1, out);
    }
  }

  private static List<BeanPropertyDefinition> properties(ObjectMapper mapper, JavaType type) {
    Class<?> raw = type.getRawClass();
    if (raw.isPrimitive() || raw.isEnum() || raw.getName().startsWith("java.") || JsonNode.class.isAssignableFrom(raw)
        || type.isContainerType()) {
      return List.of();
    }
    return mapper.getDeserializationConfig().introspect(type).findProperties();
  }

  private static JavaType element(JavaType type) {
    return type.isContainerType() ? type.getContentType() : type;
  }
}
