package dev.modelplane.simulator;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.TreeSet;

/**
 * The engine's LoRA state: which adapters the running batch uses (at most {@code max-loras}) and which are loaded on
 * the GPU (the last {@code max-loras} used, least recently used evicted first). Engine thread only.
 */
final class LoraSlots {
  private final int maxLoras;
  private final Map<String, Integer> active = new HashMap<>();
  private final LinkedHashSet<String> resident = new LinkedHashSet<>();
  private String published = null;

  LoraSlots(int maxLoras) {
    this.maxLoras = maxLoras;
  }

  /** Whether a request for {@code adapter} (null: the base model) may join the batch now. */
  boolean admits(String adapter) {
    return adapter == null || active.containsKey(adapter) || active.size() < maxLoras;
  }

  /** Marks one more running request of {@code adapter}; returns true when it had to be loaded onto the GPU. */
  boolean acquire(String adapter) {
    active.merge(adapter, 1, Integer::sum);
    if (resident.remove(adapter)) {
      resident.add(adapter);
      return false;
    }
    while (resident.size() >= maxLoras) {
      String evict = null;
      for (String r : resident) {
        if (!active.containsKey(r)) {
          evict = r;
          break;
        }
      }
      if (evict == null) {
        break;
      }
      resident.remove(evict);
    }
    resident.add(adapter);
    return true;
  }

  /** The adapters the running batch uses. */
  java.util.Set<String> running() {
    return java.util.Set.copyOf(active.keySet());
  }

  int maxLoras() {
    return maxLoras;
  }

  void release(String adapter) {
    active.computeIfPresent(adapter, (k, v) -> v == 1 ? null : v - 1);
  }

  /** Updates {@code vllm:lora_requests_info} when the running or waiting adapters changed. */
  void publish(EngineMetrics metrics, Collection<Sequence> waiting) {
    TreeSet<String> run = new TreeSet<>(active.keySet());
    TreeSet<String> wait = new TreeSet<>();
    for (Sequence s : waiting) {
      if (s.adapter != null) {
        wait.add(s.adapter);
      }
    }
    String state = String.join(",", run) + "|" + String.join(",", wait);
    if (!state.equals(published)) {
      published = state;
      // vLLM's value is the time of the change; routers pick the newest series by it.
      metrics.loraInfo.replace(System.currentTimeMillis() / 1000.0, String.valueOf(maxLoras), String.join(",", run),
          String.join(",", wait));
    }
  }
}
