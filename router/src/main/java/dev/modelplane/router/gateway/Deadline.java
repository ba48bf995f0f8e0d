package dev.modelplane.router.gateway;

import io.vertx.core.Vertx;
import java.time.Duration;

/** One re-armable timer on the event loop of an exchange or a connection; a zero duration never fires. */
final class Deadline {
  private final Vertx vertx;
  private long timerId = -1;

  Deadline(Vertx vertx) {
    this.vertx = vertx;
  }

  /** Fires {@code action} after {@code after}, replacing what was armed. */
  void arm(Duration after, Runnable action) {
    cancel();
    if (vertx == null || after.isZero() || after.isNegative()) {
      return;
    }
    timerId = vertx.setTimer(Math.max(1, after.toMillis()), id -> {
      timerId = -1;
      action.run();
    });
  }

  void cancel() {
    if (timerId >= 0) {
      vertx.cancelTimer(timerId);
      timerId = -1;
    }
  }

  boolean armed() {
    return timerId >= 0;
  }
}
