package dev.modelplane.operator.scheduling;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The cluster-wide queue of InferenceServices waiting for GPUs, ordered by effective priority (highest first), then
 * creation time (oldest first), then namespace and name. LLMKube orders by creation time only, so a critical service
 * created late queues behind a batch one; here it queues ahead, as the scheduler's preemption would treat it.
 *
 * <p>Held in memory by the (leader) operator and rebuilt as services reconcile after a restart. When a change moves
 * other services, they are reported to the listener so that their {@code queuePosition} is rewritten.
 */
public final class GpuQueue {
  /**
   * A waiting service.
   *
   * @param namespace its namespace
   * @param name its name
   * @param priority the value of the PriorityClass its pods use
   * @param created its creation time
   */
  public record Entry(String namespace, String name, int priority, Instant created) {
    String key() {
      return namespace + "/" + name;
    }
  }

  static final Comparator<Entry> ORDER = Comparator.comparingInt(Entry::priority).reversed()
      .thenComparing(Entry::created, Comparator.nullsLast(Comparator.naturalOrder()))
      .thenComparing(Entry::namespace)
      .thenComparing(Entry::name);

  private final Map<String, Entry> waiting = new HashMap<>();
  private Map<String, Integer> positions = Map.of();
  private volatile Consumer<List<Entry>> moved = entries -> { };
  private volatile Consumer<Map<String, Long>> depthListener = depths -> { };

  /** Receives the services (other than the one updated) whose position changed. */
  public void onMoved(Consumer<List<Entry>> listener) {
    this.moved = Objects.requireNonNull(listener);
  }

  /** Receives the queue depth per namespace after every change. */
  public void onDepth(Consumer<Map<String, Long>> listener) {
    this.depthListener = Objects.requireNonNull(listener);
  }

  /** Puts a service in the queue (or updates it) and returns its 1-based position. */
  public int enqueue(Entry entry) {
    return update(entry.key(), entry);
  }

  /** Takes a service out of the queue; returns 0. */
  public int remove(String namespace, String name) {
    return update(namespace + "/" + name, null);
  }

  /** The 1-based position of a service, or 0 when it is not queued. */
  public synchronized int position(String namespace, String name) {
    return positions.getOrDefault(namespace + "/" + name, 0);
  }

  /** How many services wait, per namespace. */
  public synchronized Map<String, Long> depthByNamespace() {
    Map<String, Long> depths = new TreeMap<>();
    for (Entry e : waiting.values()) {
      depths.merge(e.namespace(), 1L, Long::sum);
    }
    return depths;
  }

  /** Every waiting service in queue order. */
  public synchronized List<Entry> entries() {
    return waiting.values().stream().sorted(ORDER).toList();
  }

  private int update(String key, Entry entry) {
    List<Entry> changed = new ArrayList<>();
    int position;
    boolean queueChanged;
    synchronized (this) {
      Entry before = entry == null ? waiting.remove(key) : waiting.put(key, entry);
      queueChanged = !Objects.equals(before, entry);
      if (queueChanged) {
        Map<String, Integer> next = new HashMap<>();
        int i = 1;
        for (Entry e : waiting.values().stream().sorted(ORDER).toList()) {
          next.put(e.key(), i);
          if (!e.key().equals(key) && !Objects.equals(positions.get(e.key()), i)) {
            changed.add(e);
          }
          i++;
        }
        positions = next;
      }
      position = positions.getOrDefault(key, 0);
    }
    if (!changed.isEmpty()) {
      moved.accept(changed);
    }
    if (queueChanged) {
      depthListener.accept(depthByNamespace());
    }
    return position;
  }
}
