package dev.modelplane.operator.modelsource.fetch;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Counts a download's bytes and files and reports them to the caller's listener, at most once per interval except
 * for phase changes and finished files. Speed is the network rate over the last few seconds.
 */
final class ProgressMeter {
  private static final long WINDOW_NANOS = Duration.ofSeconds(5).toNanos();

  private record Sample(long nanos, long networkBytes) {
  }

  private final Consumer<DownloadProgress> listener;
  private final long intervalNanos;
  private final LongSupplier clock;
  private final long totalBytes;
  private final int totalFiles;
  private final ArrayDeque<Sample> samples = new ArrayDeque<>();
  private long completedBytes;
  private int completedFiles;
  private long networkBytes;
  private long lastReport = Long.MIN_VALUE;
  private DownloadProgress.Phase phase = DownloadProgress.Phase.DOWNLOADING;

  ProgressMeter(Consumer<DownloadProgress> listener, Duration interval, LongSupplier nanoClock, long totalBytes,
      int totalFiles) {
    this.listener = listener;
    this.intervalNanos = interval.toNanos();
    this.clock = nanoClock;
    this.totalBytes = totalBytes;
    this.totalFiles = totalFiles;
    samples.add(new Sample(nanoClock.getAsLong(), 0));
  }

  /** Bytes that came over the network and were written. */
  void transferred(long bytes) {
    networkBytes += bytes;
    completedBytes += bytes;
    maybeReport(false);
  }

  /** Bytes already on disk that count as done (a complete file, or the part a resume keeps). */
  void alreadyDone(long bytes) {
    completedBytes += bytes;
  }

  /** Bytes counted before that no longer count (a part restarted or thrown away). */
  void discarded(long bytes) {
    completedBytes -= bytes;
  }

  void fileCompleted() {
    completedFiles++;
    maybeReport(true);
  }

  void phase(DownloadProgress.Phase next) {
    boolean changed = next != phase;
    phase = next;
    maybeReport(changed);
  }

  DownloadProgress snapshot() {
    long now = clock.getAsLong();
    samples.addLast(new Sample(now, networkBytes));
    while (samples.size() > 2 && (now - samples.peekFirst().nanos() > WINDOW_NANOS || samples.size() > 1000)) {
      samples.removeFirst();
    }
    Sample first = samples.peekFirst();
    long elapsed = now - first.nanos();
    long speed = elapsed <= 0 ? 0 : (long) ((networkBytes - first.networkBytes()) * 1e9 / elapsed);
    return new DownloadProgress(phase, totalBytes, completedBytes, totalFiles, completedFiles, speed);
  }

  private void maybeReport(boolean force) {
    long now = clock.getAsLong();
    if (force || lastReport == Long.MIN_VALUE || now - lastReport >= intervalNanos) {
      lastReport = now;
      listener.accept(snapshot());
    }
  }
}
