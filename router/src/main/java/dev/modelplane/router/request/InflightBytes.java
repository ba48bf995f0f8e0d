package dev.modelplane.router.request;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The budget of request body bytes held at once across all requests. Each request holds a {@link Reservation} that
 * grows as its body arrives and is released exactly once when the request ends, however it ends.
 */
public final class InflightBytes {
  /** What a refused request is told to wait before trying again. */
  public static final int RETRY_AFTER_SECONDS = 1;

  private final long limit;
  private final AtomicLong used = new AtomicLong();
  private final Runnable onRejection;

  public InflightBytes(long limit, Runnable onRejection) {
    this.limit = limit;
    this.onRejection = onRejection == null ? () -> { } : onRejection;
  }

  public long limit() {
    return limit;
  }

  /** Bytes reserved now. */
  public long used() {
    return used.get();
  }

  /** An empty reservation for one request. */
  public Reservation reserve() {
    return new Reservation();
  }

  /**
   * Whether {@code bytes} more would fit now, reserving nothing: a declared {@code Content-Length} is checked with
   * this, so a client that declares a body and sends nothing holds nothing. A {@code false} counts as a rejection.
   */
  public boolean hasRoom(long bytes) {
    if (used.get() + bytes > limit) {
      onRejection.run();
      return false;
    }
    return true;
  }

  /** The 429 a request over the budget gets. */
  public RouterException refusal() {
    return new RouterException(ErrorCode.RESOURCE_EXHAUSTED, "too many request bytes in flight (limit " + limit
        + " bytes); retry later", RETRY_AFTER_SECONDS);
  }

  private boolean take(long bytes) {
    long cur;
    do {
      cur = used.get();
      if (cur + bytes > limit) {
        onRejection.run();
        return false;
      }
    } while (!used.compareAndSet(cur, cur + bytes));
    return true;
  }

  /** One request's share of the budget. */
  public final class Reservation {
    private long held;
    private boolean released;

    private Reservation() {
    }

    /**
     * Grows the reservation to {@code total} bytes; {@code false} (nothing taken) when the budget has no room.
     * After {@link #release} it holds nothing and always succeeds.
     */
    public synchronized boolean ensure(long total) {
      if (released || total <= held) {
        return true;
      }
      if (!take(total - held)) {
        return false;
      }
      held = total;
      return true;
    }

    /** Bytes held. */
    public synchronized long held() {
      return held;
    }

    /** Gives the bytes back; later calls do nothing. */
    public synchronized void release() {
      if (!released) {
        released = true;
        used.addAndGet(-held);
        held = 0;
      }
    }
  }
}
