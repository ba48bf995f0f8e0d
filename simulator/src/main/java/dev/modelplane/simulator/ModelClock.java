package dev.modelplane.simulator;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Model time in nanoseconds since start; wall time = model time × {@code --time-scale}. {@link VirtualClock} is the
 * one without a wall: time is what its driver says it is.
 */
class ModelClock {
  private final long origin = System.nanoTime();
  private final double scale;

  ModelClock(double scale) {
    this.scale = scale;
  }

  long now() {
    return (long) ((System.nanoTime() - origin) / scale);
  }

  long wallNanos(long modelNanos) {
    return (long) (modelNanos * scale);
  }

  /** Sleeps until model time {@code t} (or until {@code abort} turns true). */
  void sleepUntil(long t, BooleanSupplier abort) {
    long wallTarget = origin + (long) (t * scale);
    while (!abort.getAsBoolean()) {
      long left = wallTarget - System.nanoTime();
      if (left <= 0) {
        return;
      }
      LockSupport.parkNanos(left);
    }
  }
}
