package dev.modelplane.router.pool;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Live state of one endpoint. Metrics are an immutable snapshot swapped in by the scraper with a single volatile
 * write, so the request path reads them without taking any lock.
 */
public final class EndpointState {
  private final Endpoint endpoint;
  private volatile MetricsSnapshot metrics = MetricsSnapshot.NONE;
  private volatile int inFlightAtScrape;
  private final AtomicInteger inFlight = new AtomicInteger();
  private volatile long unreachableUntilNanos = Long.MIN_VALUE;
  private volatile boolean unreachable;

  public EndpointState(Endpoint endpoint) {
    this.endpoint = endpoint;
  }

  public Endpoint endpoint() {
    return endpoint;
  }

  public EndpointId id() {
    return endpoint.id();
  }

  public MetricsSnapshot metrics() {
    return metrics;
  }

  public void updateMetrics(MetricsSnapshot snapshot) {
    this.inFlightAtScrape = inFlight.get();
    this.metrics = snapshot;
  }

  /**
   * Requests this router started on the endpoint since its last scrape (net of those that finished), which the
   * scraped queue cannot show yet. Flow control adds them to the queue so a burst between two scrapes cannot all be
   * released against the same stale numbers.
   */
  public int startedSinceScrape() {
    return Math.max(0, inFlight.get() - inFlightAtScrape);
  }

  /** Requests this router has sent to the endpoint and not yet seen finish. */
  public int inFlight() {
    return inFlight.get();
  }

  public void requestStarted() {
    inFlight.incrementAndGet();
  }

  public void requestFinished() {
    inFlight.decrementAndGet();
  }

  /** Marks the endpoint as refusing connections until {@code untilNanos} (a {@link System#nanoTime()} value). */
  public void markUnreachable(long untilNanos) {
    unreachableUntilNanos = untilNanos;
    unreachable = true;
  }

  /** Whether a recent connection failure excludes the endpoint at {@code nowNanos}. */
  public boolean isUnreachable(long nowNanos) {
    if (!unreachable) {
      return false;
    }
    if (nowNanos - unreachableUntilNanos >= 0) {
      unreachable = false;
      return false;
    }
    return true;
  }

  @Override
  public String toString() {
    return endpoint.id() + "@" + endpoint.hostPort();
  }
}
