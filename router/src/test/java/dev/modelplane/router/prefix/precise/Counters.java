package dev.modelplane.router.prefix.precise;

import dev.modelplane.router.plugin.PluginObserver;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Counts what the precise prefix index reports, as {@code what:pool:label} → total. */
final class Counters implements PluginObserver {
  final Map<String, Long> counts = new ConcurrentHashMap<>();

  long get(String key) {
    return counts.getOrDefault(key, 0L);
  }

  private void add(String key, long n) {
    counts.merge(key, n, Long::sum);
  }

  @Override
  public void kvEventBatch(String pool) {
    add("batches:" + pool, 1);
  }

  @Override
  public void kvEvent(String pool, String type) {
    add("events:" + pool + ":" + type, 1);
  }

  @Override
  public void kvEventsSkipped(String pool, String reason, long events) {
    add("skipped:" + pool + ":" + reason, events);
  }

  @Override
  public void kvEventBatchesLost(String pool, long batches) {
    add("lost:" + pool, batches);
  }

  @Override
  public void kvEventMalformed(String pool) {
    add("malformed:" + pool, 1);
  }

  @Override
  public void kvBlockHashes(String pool, boolean agree, long blocks) {
    add((agree ? "agree:" : "disagree:") + pool, blocks);
  }

  @Override
  public void precisePrefixFallback(String pool, String reason) {
    add("fallback:" + pool + ":" + reason, 1);
  }
}
