package dev.modelplane.planner.workload;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.common.text.EditDistance;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A value in a workload file with its place: the dotted path of its field and the line it is on, so that every error
 * names the file, the line and the field.
 *
 * @param file the file's name, as errors show it
 * @param path dotted path from the top, e.g. {@code prefix.share}; empty for the top
 * @param node the value
 * @param lines the line of every field, by path
 */
record FileNode(String file, String path, JsonNode node, Map<String, Integer> lines) {

  /** The field {@code name} of this object, or null when absent (or null in the file). */
  FileNode field(String name) {
    JsonNode child = node.get(name);
    return child == null || child.isNull() ? null : new FileNode(file, child(name), child, lines);
  }

  boolean has(String name) {
    return field(name) != null;
  }

  /** Fails on a field not in {@code allowed}, suggesting the nearest allowed name. */
  void onlyFields(Set<String> allowed) {
    if (!node.isObject()) {
      String fields = String.join(", ", allowed.stream().sorted().toList());
      throw path.isEmpty() ? fail("expected a mapping of fields (" + fields + "), got " + shown())
          : problem("must be a mapping of " + fields + ", got " + shown());
    }
    for (String name : (Iterable<String>) node::fieldNames) {
      if (!allowed.contains(name)) {
        String near = allowed.stream().min(Comparator.comparingInt(a -> distance(a, name))).orElseThrow();
        String hint = distance(near, name) <= Math.max(2, name.length() / 3) ? " (did you mean " + near + "?)"
            : " (allowed: " + String.join(", ", allowed.stream().sorted().toList()) + ")";
        throw new FileNode(file, child(name), node.get(name), lines)
            .fail("unknown field \"" + child(name) + "\"" + hint);
      }
    }
  }

  double number() {
    if (!node.isNumber()) {
      throw problem("must be a number, got " + shown());
    }
    return node.doubleValue();
  }

  /** A number in {@code [min, max]}. */
  double number(double min, double max) {
    double value = number();
    if (!(value >= min && value <= max)) {
      throw problem("must be between " + LengthDistribution.number(min) + " and " + LengthDistribution.number(max)
          + ", got " + shown());
    }
    return value;
  }

  /** A whole number of at least {@code min}. */
  long whole(long min) {
    if (!node.canConvertToLong() || !node.isIntegralNumber()) {
      throw problem("must be a whole number, got " + shown());
    }
    if (node.longValue() < min) {
      throw problem("must be at least " + min + ", got " + shown());
    }
    return node.longValue();
  }

  int count(int min) {
    long value = whole(min);
    if (value > Integer.MAX_VALUE) {
      throw problem("must be at most " + Integer.MAX_VALUE + ", got " + shown());
    }
    return (int) value;
  }

  String text() {
    if (!node.isTextual() && !node.isNumber()) {
      throw problem("must be text, got " + shown());
    }
    return node.asText();
  }

  /** The items of a list. */
  List<FileNode> items() {
    if (!node.isArray()) {
      throw problem("must be a list, got " + shown());
    }
    List<FileNode> items = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      items.add(new FileNode(file, path + "[" + i + "]", node.get(i), lines));
    }
    return items;
  }

  /** An error about this value: {@code file: line N: path message}. */
  IllegalArgumentException problem(String message) {
    return fail(path + " " + message);
  }

  /** An error at this value's line: {@code file: line N: message}. */
  IllegalArgumentException fail(String message) {
    Integer line = lineOf(path);
    return new IllegalArgumentException(file + (line == null ? "" : ": line " + line) + ": " + message);
  }

  String shown() {
    String s = node.isTextual() ? "\"" + node.asText() + "\"" : node.toString();
    return s.length() > 60 ? s.substring(0, 57) + "..." : s;
  }

  private Integer lineOf(String p) {
    String at = p;
    while (!at.isEmpty()) {
      Integer line = lines.get(at);
      if (line != null) {
        return line;
      }
      int cut = Math.max(at.lastIndexOf('.'), at.lastIndexOf('['));
      at = cut < 0 ? "" : at.substring(0, cut);
    }
    return null; // the whole file
  }

  private String child(String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  /** Edit distance ignoring case, for suggestions. */
  static int distance(String a, String b) {
    return EditDistance.between(a.toLowerCase(java.util.Locale.ROOT), b.toLowerCase(java.util.Locale.ROOT));
  }
}
