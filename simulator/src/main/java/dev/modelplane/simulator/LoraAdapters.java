package dev.modelplane.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The LoRA adapters a rank knows: from {@code --lora-modules} and the load/unload endpoints. */
final class LoraAdapters {
  /** One adapter. */
  record Adapter(String name, String path, String baseModel, long created) {
  }

  private final Map<String, Adapter> adapters = new ConcurrentHashMap<>();
  private final List<String> order = new ArrayList<>();

  /** Parses one {@code --lora-modules} entry: JSON {@code {"name","path","base_model_name"}} or {@code name=path}. */
  static Adapter parse(String spec, String baseModel) {
    String s = spec.trim();
    if (s.startsWith("{")) {
      try {
        JsonNode n = new ObjectMapper().readTree(s);
        String name = n.path("name").asText("");
        if (name.isEmpty()) {
          throw new IllegalArgumentException("--lora-modules entry without \"name\": " + spec);
        }
        return new Adapter(name, n.path("path").asText(name), n.path("base_model_name").asText(baseModel),
            System.currentTimeMillis() / 1000);
      } catch (java.io.IOException e) {
        throw new IllegalArgumentException("--lora-modules entry is not valid JSON: " + spec, e);
      }
    }
    int eq = s.indexOf('=');
    String name = eq < 0 ? s : s.substring(0, eq);
    if (name.isEmpty()) {
      throw new IllegalArgumentException("--lora-modules entry without a name: " + spec);
    }
    return new Adapter(name, eq < 0 ? name : s.substring(eq + 1), baseModel, System.currentTimeMillis() / 1000);
  }

  /** Adds an adapter; false when one of that name exists. */
  synchronized boolean add(Adapter a) {
    if (adapters.putIfAbsent(a.name(), a) != null) {
      return false;
    }
    order.add(a.name());
    return true;
  }

  synchronized boolean remove(String name) {
    order.remove(name);
    return adapters.remove(name) != null;
  }

  boolean contains(String name) {
    return adapters.containsKey(name);
  }

  synchronized List<Adapter> list() {
    List<Adapter> out = new ArrayList<>();
    for (String n : order) {
      out.add(adapters.get(n));
    }
    return out;
  }
}
