package dev.modelplane.operator.ome.modelagent;

import dev.modelplane.operator.modelsource.fetch.DownloadProgress;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Decides which download progress updates are published: the first one, every change of phase, and otherwise at
 * most one per interval, so a node's ConfigMap is not rewritten for every chunk. One instance per download.
 */
public final class ReportThrottle {
  private final long intervalNanos;
  private final LongSupplier nanoTime;
  private long lastPublished;
  private DownloadProgress.Phase lastPhase;

  /**
   * @param interval the shortest time between two progress reports of the same phase
   * @param nanoTime the clock, {@code System::nanoTime} outside tests
   */
  public ReportThrottle(Duration interval, LongSupplier nanoTime) {
    this.intervalNanos = interval.toNanos();
    this.nanoTime = nanoTime;
  }

  /** Whether {@code progress} should be published now; if so, it counts as published. */
  public synchronized boolean admit(DownloadProgress progress) {
    long now = nanoTime.getAsLong();
    boolean publish = lastPhase == null || progress.phase() != lastPhase || now - lastPublished >= intervalNanos;
    if (publish) {
      lastPublished = now;
      lastPhase = progress.phase();
    }
    return publish;
  }
}
