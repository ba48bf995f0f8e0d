package dev.modelplane.router.pool;

import java.util.Set;

/**
 * What the scheduler knows about one endpoint, as of one scrape. Immutable; replaced as a whole on every scrape.
 *
 * @param waitingQueueSize requests waiting in the model server's queue
 * @param runningRequests requests being processed
 * @param kvCacheUsage KV-cache utilisation, 0..1
 * @param activeModels LoRA adapters loaded and running
 * @param waitingModels LoRA adapters with requests waiting
 * @param maxActiveModels how many adapters the server can hold at once ({@code max_lora})
 * @param cacheBlockSize tokens per KV block ({@code cache_config_info{block_size}}), 0 when unknown
 * @param cacheNumBlocks KV blocks on the device ({@code num_gpu_blocks}), 0 when unknown
 * @param updated whether any scrape has succeeded yet
 * @param updateTimeNanos {@link System#nanoTime()} of the last successful extraction
 */
public record MetricsSnapshot(
    int waitingQueueSize,
    int runningRequests,
    double kvCacheUsage,
    Set<String> activeModels,
    Set<String> waitingModels,
    int maxActiveModels,
    int cacheBlockSize,
    int cacheNumBlocks,
    boolean updated,
    long updateTimeNanos) {

  /** No scrape yet: counts as stale everywhere staleness matters. */
  public static final MetricsSnapshot NONE =
      new MetricsSnapshot(0, 0, 0, Set.of(), Set.of(), 0, 0, 0, false, 0);

  public MetricsSnapshot {
    activeModels = activeModels == null ? Set.of() : activeModels;
    waitingModels = waitingModels == null ? Set.of() : waitingModels;
  }

  /** Whether the snapshot is older than {@code thresholdNanos} (or missing) at {@code nowNanos}. */
  public boolean isStale(long nowNanos, long thresholdNanos) {
    return !updated || nowNanos - updateTimeNanos > thresholdNanos;
  }

  /** Plain snapshot for tests and static setups. */
  public static MetricsSnapshot of(int waiting, double kvUsage, long updateTimeNanos) {
    return new MetricsSnapshot(waiting, 0, kvUsage, Set.of(), Set.of(), 0, 0, 0, true, updateTimeNanos);
  }

  public MetricsSnapshot withLora(Set<String> active, Set<String> waiting, int maxLoras) {
    return new MetricsSnapshot(waitingQueueSize, runningRequests, kvCacheUsage, Set.copyOf(active),
        Set.copyOf(waiting), maxLoras, cacheBlockSize, cacheNumBlocks, updated, updateTimeNanos);
  }

  public MetricsSnapshot withCache(int blockSize, int numBlocks) {
    return new MetricsSnapshot(waitingQueueSize, runningRequests, kvCacheUsage, activeModels, waitingModels,
        maxActiveModels, blockSize, numBlocks, updated, updateTimeNanos);
  }

  public MetricsSnapshot withRunning(int running) {
    return new MetricsSnapshot(waitingQueueSize, running, kvCacheUsage, activeModels, waitingModels,
        maxActiveModels, cacheBlockSize, cacheNumBlocks, updated, updateTimeNanos);
  }
}
