package dev.modelplane.simulator;

import java.util.function.BooleanSupplier;

/** Model time without a wall clock: it is what the driver of a virtual run last set, and nothing sleeps. */
final class VirtualClock extends ModelClock {
  private long now;

  VirtualClock() {
    super(1.0);
  }

  @Override
  long now() {
    return now;
  }

  void set(long nanos) {
    now = nanos;
  }

  @Override
  long wallNanos(long modelNanos) {
    return 0;
  }

  @Override
  void sleepUntil(long t, BooleanSupplier abort) {
    now = Math.max(now, t);
  }
}
