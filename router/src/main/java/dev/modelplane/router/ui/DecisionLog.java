package dev.modelplane.router.ui;

import java.util.ArrayList;
import java.util.List;

/** The last {@code capacity} decisions, in a fixed ring: memory stays bounded however many requests pass. */
final class DecisionLog {
  private final LiveDecision[] ring;
  private int next;
  private long total;

  DecisionLog(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
    }
    this.ring = new LiveDecision[capacity];
  }

  synchronized void add(LiveDecision d) {
    ring[next] = d;
    next = (next + 1) % ring.length;
    total++;
  }

  /** The kept decisions, newest first. */
  synchronized List<LiveDecision> newestFirst() {
    List<LiveDecision> out = new ArrayList<>(ring.length);
    for (int i = 1; i <= ring.length; i++) {
      LiveDecision d = ring[Math.floorMod(next - i, ring.length)];
      if (d == null) {
        break;
      }
      out.add(d);
    }
    return out;
  }

  /** Decisions ever added (also those the ring has dropped). */
  synchronized long total() {
    return total;
  }

  int capacity() {
    return ring.length;
  }
}
