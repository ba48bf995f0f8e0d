package dev.modelplane.router.gatewayapi;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A {@code RequestHeaderModifier} filter: headers to set (replacing every value), to add (appended to an existing
 * value with a comma) and to remove. Names compare without regard to case.
 *
 * @param set name and value pairs to set
 * @param add name and value pairs to add
 * @param remove names to remove
 */
record HeaderModifier(List<Map.Entry<String, String>> set, List<Map.Entry<String, String>> add,
    List<String> remove) {

  static HeaderModifier parse(JsonNode filter) {
    List<String> remove = new ArrayList<>();
    Json.list(filter, "remove").forEach(name -> remove.add(name.asText()));
    return new HeaderModifier(pairs(filter, "set"), pairs(filter, "add"), List.copyOf(remove));
  }

  private static List<Map.Entry<String, String>> pairs(JsonNode filter, String field) {
    List<Map.Entry<String, String>> out = new ArrayList<>();
    for (JsonNode header : Json.list(filter, field)) {
      out.add(Map.entry(Json.text(header, "name", ""), Json.textKeepEmpty(header, "value", "")));
    }
    return List.copyOf(out);
  }

  /** Applies set, then add, then remove to {@code headers}; names this filter introduces are lower case. */
  void apply(Map<String, List<String>> headers) {
    for (Map.Entry<String, String> header : set) {
      removeAll(headers, header.getKey());
      headers.put(header.getKey().toLowerCase(Locale.ROOT), new ArrayList<>(List.of(header.getValue())));
    }
    for (Map.Entry<String, String> header : add) {
      String existing = find(headers, header.getKey());
      if (existing == null) {
        headers.put(header.getKey().toLowerCase(Locale.ROOT), new ArrayList<>(List.of(header.getValue())));
      } else {
        List<String> values = headers.get(existing);
        String joined = values == null || values.isEmpty() ? header.getValue()
            : String.join(",", values) + "," + header.getValue();
        headers.put(existing, new ArrayList<>(List.of(joined)));
      }
    }
    for (String name : remove) {
      removeAll(headers, name);
    }
  }

  private static String find(Map<String, List<String>> headers, String name) {
    for (String key : headers.keySet()) {
      if (key.equalsIgnoreCase(name)) {
        return key;
      }
    }
    return null;
  }

  private static void removeAll(Map<String, List<String>> headers, String name) {
    headers.keySet().removeIf(key -> key.equalsIgnoreCase(name));
  }
}
