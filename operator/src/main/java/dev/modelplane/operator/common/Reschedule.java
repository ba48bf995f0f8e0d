package dev.modelplane.operator.common;

import java.time.Duration;

/** When a reconciler looks at a resource again, from the waits its parts ask for. */
public final class Reschedule {
  private Reschedule() {
  }

  /** The shortest of the given waits, nulls ignored; null when all are null (no timer needed). */
  public static Duration earliest(Duration... waits) {
    Duration min = null;
    for (Duration d : waits) {
      if (d != null && (min == null || d.compareTo(min) < 0)) {
        min = d;
      }
    }
    return min;
  }
}
