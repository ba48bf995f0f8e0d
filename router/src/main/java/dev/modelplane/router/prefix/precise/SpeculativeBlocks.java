package dev.modelplane.router.prefix.precise;

import dev.modelplane.router.pool.EndpointId;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Blocks an endpoint is expected to hold because the router just sent it a request with them: a burst of requests
 * sharing a prefix lands together before the server's events say where the prefix is. Each guess lasts a fixed time;
 * the server's events then stand alone (a removal or a reset also drops the guess at once). At most {@code max}
 * guesses are kept, the oldest dropped first. Readers take no lock.
 */
final class SpeculativeBlocks {
  private record Mark(EndpointId pod, long expiresNanos) {
  }

  private record Pending(long key, EndpointId pod, long expiresNanos) {
  }

  private final long ttlNanos;
  private final int max;
  private final ConcurrentHashMap<Long, Mark[]> marks = new ConcurrentHashMap<>();
  private final ArrayDeque<Pending> order = new ArrayDeque<>();

  SpeculativeBlocks(long ttlNanos, int max) {
    this.ttlNanos = ttlNanos;
    this.max = max;
  }

  /** Whether {@code pod} is guessed to hold {@code key} at {@code nowNanos}. */
  boolean holds(long key, EndpointId pod, long nowNanos) {
    Mark[] m = marks.get(key);
    if (m != null) {
      for (Mark mark : m) {
        if (mark.pod().equals(pod) && nowNanos - mark.expiresNanos() < 0) {
          return true;
        }
      }
    }
    return false;
  }

  /** Guesses that {@code pod} holds every block of {@code keys} from {@code nowNanos} for the TTL. */
  synchronized void mark(long[] keys, EndpointId pod, long nowNanos) {
    while (!order.isEmpty() && nowNanos - order.peekFirst().expiresNanos() >= 0) {
      drop(order.pollFirst());
    }
    long expires = nowNanos + ttlNanos;
    for (long key : keys) {
      marks.compute(key, (k, m) -> with(m, new Mark(pod, expires)));
      order.addLast(new Pending(key, pod, expires));
    }
    while (order.size() > max) {
      drop(order.pollFirst());
    }
  }

  /** Drops the guess that {@code pod} holds {@code key}. */
  synchronized void forget(long key, EndpointId pod) {
    marks.computeIfPresent(key, (k, m) -> without(m, pod, Long.MIN_VALUE, true));
  }

  /** Drops every guess about {@code pod}. */
  synchronized void forget(EndpointId pod) {
    order.removeIf(p -> {
      if (p.pod().equals(pod)) {
        drop(p);
        return true;
      }
      return false;
    });
  }

  /** Guesses queued, counting those expired, replaced or forgotten but not dropped yet. */
  synchronized int size() {
    return order.size();
  }

  /** Drops a queued guess unless a later one for the same key and endpoint replaced it. */
  private void drop(Pending p) {
    marks.computeIfPresent(p.key(), (k, m) -> without(m, p.pod(), p.expiresNanos(), false));
  }

  private static Mark[] with(Mark[] m, Mark mark) {
    if (m == null) {
      return new Mark[] {mark};
    }
    Mark[] rest = without(m, mark.pod(), Long.MIN_VALUE, true);
    Mark[] out = rest == null ? new Mark[1] : Arrays.copyOf(rest, rest.length + 1);
    out[out.length - 1] = mark;
    return out;
  }

  /**
   * {@code m} without {@code pod}'s mark (only the one expiring at {@code expires} unless {@code any}); null when
   * none is left.
   */
  private static Mark[] without(Mark[] m, EndpointId pod, long expires, boolean any) {
    Mark[] out = Arrays.stream(m).filter(x -> !(x.pod().equals(pod) && (any || x.expiresNanos() == expires)))
        .toArray(Mark[]::new);
    return out.length == 0 ? null : out;
  }
}
