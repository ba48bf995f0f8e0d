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
  private final AtomicInteger picksSinceScrape = new AtomicInteger();
  private final AtomicInteger awaitingStart = new AtomicInteger();
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
    int picks = picksSinceScrape.getAndSet(0);
    // Choices made before the previous scrape and still not started will not start (the client left, or the request
    // went elsewhere): forget them, so the count cannot leak.
    awaitingStart.getAndUpdate(n -> Math.min(n, picks));
    this.metrics = snapshot;
  }

  /**
   * Requests the last scrape cannot show yet: those the scheduler chose this endpoint for since the scrape, or, if
   * more, those this router started on it since (net of those that finished). The queue scorer and the saturation
   * detector add them to the scraped queue, so a burst of decisions between two scrapes — a flow-control release,
   * say — is spread instead of all going to the endpoint that looked emptiest.
   */
  public int unscrapedRequests() {
    return Math.max(picksSinceScrape.get(), Math.max(0, inFlight.get() - inFlightAtScrape));
  }

  /** The scheduler chose this endpoint for a request; counted in {@link #unscrapedRequests()} until the next scrape. */
  public void picked() {
    picksSinceScrape.incrementAndGet();
    awaitingStart.incrementAndGet();
  }

  /** Requests this router has sent to the endpoint and not yet seen finish. */
  public int inFlight() {
    return inFlight.get();
  }

  public void requestStarted() {
    inFlight.incrementAndGet();
    awaitingStart.getAndUpdate(n -> n > 0 ? n - 1 : 0);
  }

  /**
   * Requests on this endpoint as this router counts them, without waiting for a scrape: those it sent and has not
   * seen finish, plus those it chose the endpoint for and is about to send (forgotten after a scrape interval if they
   * never start).
   */
  public int load() {
    return inFlight.get() + awaitingStart.get();
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
