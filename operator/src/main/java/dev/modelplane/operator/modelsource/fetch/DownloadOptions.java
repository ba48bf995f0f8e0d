package dev.modelplane.operator.modelsource.fetch;

import dev.modelplane.common.time.Backoff;
import java.time.Duration;

/**
 * How hard and how often the downloader tries.
 *
 * @param maxAttempts attempts per file in a row that move no bytes forward before the download fails
 * @param initialBackoff wait after the first failed attempt; doubles each time
 * @param maxBackoff longest wait between attempts
 * @param stallTimeout a transfer that moves no byte for this long is aborted (and retried)
 * @param progressInterval shortest time between two progress reports (phase changes and finished files are always
 *     reported)
 */
public record DownloadOptions(int maxAttempts, Duration initialBackoff, Duration maxBackoff, Duration stallTimeout,
    Duration progressInterval) {
  /** Defaults: 5 attempts, 1 s doubling to 30 s, 60 s stall timeout, a report at most every second. */
  public static final DownloadOptions DEFAULTS = new DownloadOptions(5, Duration.ofSeconds(1),
      Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofSeconds(1));

  public DownloadOptions {
    if (maxAttempts < 1 || maxAttempts > 100) {
      throw new IllegalArgumentException("maxAttempts must be 1 to 100, got " + maxAttempts);
    }
    if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
      throw new IllegalArgumentException("backoff must be 0 <= initial <= max, got " + initialBackoff + " and "
          + maxBackoff);
    }
    if (stallTimeout.isNegative() || stallTimeout.isZero() || progressInterval.isNegative()) {
      throw new IllegalArgumentException("stallTimeout must be positive and progressInterval not negative, got "
          + stallTimeout + " and " + progressInterval);
    }
  }

  /** The backoff before attempt {@code attempt} (2 = first retry). */
  Duration backoff(int attempt) {
    return new Backoff(initialBackoff, maxBackoff).delay(attempt - 1);
  }
}
