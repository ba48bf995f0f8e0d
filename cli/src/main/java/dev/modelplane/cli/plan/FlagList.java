package dev.modelplane.cli.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A server's argument list in a manifest ({@code --flag value} or {@code --flag=value}): read and rewrite a flag. */
final class FlagList {
  private FlagList() {
  }

  /** The strings of a YAML list (empty when it is missing or not a list). */
  static List<String> strings(JsonNode list) {
    List<String> out = new ArrayList<>();
    if (list != null && list.isArray()) {
      list.forEach(n -> out.add(n.asText()));
    }
    return out;
  }

  /** The value of the last of {@code names} given, as argument parsers take it. */
  static Optional<String> value(List<String> args, String... names) {
    String found = null;
    for (int i = 0; i < args.size(); i++) {
      for (String name : names) {
        if (args.get(i).equals(name)) {
          found = i + 1 < args.size() ? args.get(i + 1) : "";
        } else if (args.get(i).startsWith(name + "=")) {
          found = args.get(i).substring(name.length() + 1);
        }
      }
    }
    return Optional.ofNullable(found);
  }

  /** {@link #value} as a whole number, when it is one. */
  static Optional<Integer> integer(List<String> args, String... names) {
    return value(args, names).flatMap(FlagList::parse);
  }

  static Optional<Integer> parse(String text) {
    try {
      return Optional.of(Integer.parseInt(text.trim()));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** {@code args} without any of {@code names} (and the value that follows a bare one). */
  static List<String> without(List<String> args, String... names) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      boolean bare = List.of(names).contains(a);
      boolean joined = List.of(names).stream().anyMatch(n -> a.startsWith(n + "="));
      if (bare && i + 1 < args.size() && !args.get(i + 1).startsWith("-")) {
        i++;
      } else if (!bare && !joined) {
        out.add(a);
      }
    }
    return out;
  }

  /** Replaces the list under {@code field} of {@code parent} with {@code args} (removed when empty). */
  static void put(com.fasterxml.jackson.databind.node.ObjectNode parent, String field, List<String> args) {
    if (args.isEmpty()) {
      parent.remove(field);
      return;
    }
    ArrayNode list = parent.putArray(field);
    args.forEach(list::add);
  }
}
