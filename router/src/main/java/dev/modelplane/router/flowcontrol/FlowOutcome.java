package dev.modelplane.router.flowcontrol;

/** How a request left flow control, and the HTTP status GIE answers with when it was not dispatched. */
public enum FlowOutcome {
  DISPATCHED(200, "dispatched"),
  /** Queue limits exceeded: 429. */
  REJECTED_CAPACITY(429, "rejected-capacity"),
  /** Waited longer than its TTL: 503. */
  EVICTED_TTL(503, "evicted-ttl"),
  /** The client went away while queued: 503. */
  EVICTED_CONTEXT_CANCELLED(503, "evicted-context-cancelled"),
  /** Shut down or internal error: 500. */
  REJECTED_OTHER(500, "rejected-other");

  private final int httpStatus;
  private final String label;

  FlowOutcome(int httpStatus, String label) {
    this.httpStatus = httpStatus;
    this.label = label;
  }

  public int httpStatus() {
    return httpStatus;
  }

  /** Label value for metrics. */
  public String label() {
    return label;
  }
}
