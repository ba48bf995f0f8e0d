package dev.modelplane.router.request;

import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.ResponseOutcome;
import dev.modelplane.router.ui.LiveDecision;
import dev.modelplane.router.ui.LiveView;

/** Turns the director's ends of requests into the live page's rows: names and numbers only, no request content. */
final class LiveViewFeed {
  private final LiveView view;

  LiveViewFeed(LiveView view) {
    this.view = view;
  }

  /** A request the director routed is over; {@code decision} is its last attempt's. */
  void completed(RoutingDecision decision, ResponseOutcome outcome, long nowNanos) {
    Destination to = decision.destination();
    EndpointState state = to.state();
    String reason = decision.external() != null ? "endpoint picker"
        : decision.result() != null ? "profile " + decision.result().primaryProfileName() : "";
    long received = decision.input().receivedNanos();
    // Only a stream has a first token before its end; a plain body's first byte comes with all of it.
    double ttftMs = outcome.events() > 0 && outcome.firstByteNanos() >= 0
        ? Math.max(0, (outcome.firstByteNanos() - received) / 1e6) : -1;
    InferenceRequest r = decision.request();
    view.record(new LiveDecision(view.nowMillis(), poolName(decision.input()), r.incomingModel(), r.targetModel(),
        state == null ? to.hostPort() : state.id().name(), to.hostPort(), reason,
        outcome.status() > 0 ? outcome.status() : 502, ttftMs, Math.max(0, (nowNanos - received) / 1e6),
        outcome.events()));
  }

  /** The router refused a request before any endpoint was chosen. */
  void refused(RequestInput input, String model, String target, RouterException e) {
    view.record(new LiveDecision(view.nowMillis(), poolName(input), model, target, "", "", e.code().code(),
        e.code().httpStatus(), -1, -1, 0));
  }

  private static String poolName(RequestInput input) {
    return input.pool() == null ? "" : input.pool().key().toString();
  }
}
