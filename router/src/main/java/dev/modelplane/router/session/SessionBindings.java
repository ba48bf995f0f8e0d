package dev.modelplane.router.session;

import dev.modelplane.router.pool.EndpointId;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Session identifier → endpoint, for the {@code session_id} strategy. A binding is dropped once it has gone unused
 * for longer than the TTL; expired bindings are swept at most once per sweep interval, on the next lookup or update,
 * so — as in llm-d, whose sweeper runs on a timer — a binding can outlive its TTL by up to one interval.
 *
 * <p>Clients choose the identifiers, so the store is bounded: identifiers longer than {@value #MAX_ID_LENGTH}
 * characters are not bound, and while {@value #MAX_SESSIONS} sessions are bound a new one is not (it is placed like
 * a request without a session, and bound once a sweep makes room).
 */
final class SessionBindings {
  static final int MAX_SESSIONS = 100_000;
  static final int MAX_ID_LENGTH = 256;

  private record Binding(EndpointId endpoint, long lastSeenNanos) {
  }

  private final Map<String, Binding> bindings = new ConcurrentHashMap<>();
  private final long ttlNanos;
  private final long sweepNanos;
  private final LongSupplier nanoClock;
  private final AtomicLong nextSweepNanos;

  SessionBindings(long ttlNanos, long sweepNanos, LongSupplier nanoClock) {
    this.ttlNanos = ttlNanos;
    this.sweepNanos = sweepNanos;
    this.nanoClock = nanoClock;
    this.nextSweepNanos = new AtomicLong(nanoClock.getAsLong() + sweepNanos);
  }

  /** The endpoint {@code sessionId} is bound to, or {@code null}. */
  EndpointId bound(String sessionId) {
    sweepIfDue();
    Binding b = bindings.get(sessionId);
    return b == null ? null : b.endpoint();
  }

  /**
   * The request of {@code sessionId} went to {@code picked}. An unbound session is bound to it; a session bound to it
   * is refreshed; a session bound elsewhere moves only when its endpoint was confirmed absent from the candidates
   * ({@code boundWasCandidate} false) — not merely out-scored, and not when nobody looked ({@code null}).
   */
  void record(String sessionId, EndpointId picked, Boolean boundWasCandidate) {
    if (sessionId.length() > MAX_ID_LENGTH) {
      return;
    }
    sweepIfDue();
    long now = nanoClock.getAsLong();
    bindings.compute(sessionId, (id, existing) -> {
      if (existing == null) {
        return bindings.size() >= MAX_SESSIONS ? null : new Binding(picked, now);
      }
      if (existing.endpoint().equals(picked) || Boolean.FALSE.equals(boundWasCandidate)) {
        return new Binding(picked, now);
      }
      return existing;
    });
  }

  int size() {
    return bindings.size();
  }

  private void sweepIfDue() {
    long now = nanoClock.getAsLong();
    long due = nextSweepNanos.get();
    if (now - due < 0 || !nextSweepNanos.compareAndSet(due, now + sweepNanos)) {
      return;
    }
    // Conditional on the value: a binding refreshed since this sweep read it stays.
    bindings.entrySet().removeIf(e -> now - e.getValue().lastSeenNanos() > ttlNanos);
  }
}
