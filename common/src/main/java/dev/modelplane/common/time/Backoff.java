package dev.modelplane.common.time;

import java.time.Duration;
import java.util.Objects;

/**
 * Exponential backoff: {@code first} before the first retry, twice as long before each further one, never longer
 * than {@code max}. Without jitter: every caller retries one thing of its own (a file, a model, an eviction, a
 * process), so there is no crowd of clients to spread out.
 *
 * @param first the wait before the first retry; zero retries at once every time
 * @param max the longest wait, also when {@code first} is longer
 */
public record Backoff(Duration first, Duration max) {
  /** Checks that neither wait is negative. */
  public Backoff {
    Objects.requireNonNull(first, "first");
    Objects.requireNonNull(max, "max");
    if (first.isNegative() || max.isNegative()) {
      throw new IllegalArgumentException("backoff waits must not be negative, got " + first + " and " + max);
    }
  }

  /** The wait before retry {@code n} (1 = the first; lower counts as 1): {@code first * 2^(n-1)}, at most max. */
  public Duration delay(int n) {
    Duration half = max.dividedBy(2);
    Duration wait = first.compareTo(max) > 0 ? max : first;
    for (int i = 1; i < n && !wait.isZero() && wait.compareTo(max) < 0; i++) {
      wait = wait.compareTo(half) > 0 ? max : wait.multipliedBy(2);
    }
    return wait;
  }
}
