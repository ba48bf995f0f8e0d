package dev.modelplane.router.scheduling;

import java.util.HashMap;
import java.util.Map;

/** Scratch space shared by the plugins of one scheduling cycle. Not thread-safe: a cycle runs on one thread. */
public final class CycleState {
  private final Map<String, Object> data = new HashMap<>();

  public void put(String key, Object value) {
    data.put(key, value);
  }

  @SuppressWarnings("unchecked")
  public <T> T get(String key) {
    return (T) data.get(key);
  }
}
