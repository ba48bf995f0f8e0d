package dev.modelplane.router.gateway;

import dev.modelplane.router.request.Destination;
import dev.modelplane.router.request.RequestDirector;
import dev.modelplane.router.request.RoutingDecision;
import dev.modelplane.router.scheduling.ResponseOutcome;
import dev.modelplane.router.scheduling.ResponseProgress;
import dev.modelplane.common.tracing.TraceHeaders;
import dev.modelplane.router.request.RequestTrace;
import dev.modelplane.router.request.RequestTracer;
import io.vertx.core.http.HttpServerRequest;
import java.util.Map;

/**
 * What one exchange reports when it ends — the director's response-complete step, the gateway's request count and
 * duration, the access log line — and what it notes for that on the way: the pool, the last decision, the endpoints
 * tried, when the response began and with which status.
 */
final class ExchangeReport {
  private final GatewayContext ctx;
  private final HttpServerRequest req;
  private final long startNanos;
  private final ResponseProgress progress;
  private RequestRoute route;
  private RoutingDecision decision;
  private Destination endpoint;
  private int attempts;
  private long ttfbNanos = -1;
  private int upstreamStatus;
  /** The request's spans; {@link RequestTrace#OFF} unless tracing is on. */
  private final RequestTrace trace;

  ExchangeReport(GatewayContext ctx, HttpServerRequest req) {
    this.ctx = ctx;
    this.req = req;
    this.startNanos = ctx.nanoClock().getAsLong();
    this.progress = ctx.director().responseProgress();
    RequestTracer tracer = ctx.director().tracer();
    this.trace = tracer.enabled() ? tracer.start("router.request", traceHeaders(req), req.method().name(), req.path())
        : RequestTrace.OFF;
  }

  /** The incoming W3C trace context headers (only those: the span needs nothing else). */
  private static Map<String, String> traceHeaders(HttpServerRequest req) {
    String parent = req.getHeader(TraceHeaders.TRACEPARENT);
    if (parent == null) {
      return Map.of();
    }
    String state = req.getHeader("tracestate");
    return state == null ? Map.of(TraceHeaders.TRACEPARENT, parent)
        : Map.of(TraceHeaders.TRACEPARENT, parent, "tracestate", state);
  }

  RequestTrace trace() {
    return trace;
  }

  /** When the request arrived. */
  long startNanos() {
    return startNanos;
  }

  /** The response's stream timing, for the director; {@code null} when no plugin reads it. */
  ResponseProgress progress() {
    return progress;
  }

  void routed(RequestRoute route) {
    this.route = route;
  }

  /** The director decided (or, for a retry, decided again). */
  void decided(RoutingDecision decision) {
    this.decision = decision;
  }

  /** An attempt goes to {@code endpoint}. */
  void attempting(Destination endpoint) {
    this.endpoint = endpoint;
    attempts++;
  }

  int attempts() {
    return attempts;
  }

  /** The response head goes to the client. */
  void responseStarted(int status) {
    ttfbNanos = ctx.nanoClock().getAsLong() - startNanos;
    ctx.metrics().gatewayTtfb.observe(ttfbNanos / 1e9);
    upstreamStatus = status;
  }

  /**
   * The exchange ended with {@code status} ({@code error}: why it failed, else null); {@code completed}: the response
   * reached its end.
   */
  void finished(int status, String error, boolean completed, long requestBytes, long responseBytes) {
    trace.end(status, error);
    long now = ctx.nanoClock().getAsLong();
    long duration = now - startNanos;
    if (decision != null) {
      ctx.director().complete(decision, ResponseOutcome.of(upstreamStatus, completed, responseBytes, progress), now);
    }
    ctx.metrics().gatewayRequests.inc(String.valueOf(status), ctx.director().modelLabel(decision));
    ctx.metrics().gatewayDuration.observe(duration / 1e9, String.valueOf(status));
    if (ctx.accessLog() != null) {
      ctx.accessLog().log(new AccessLog.Entry(req.method().name(), req.path(), status, duration / 1000,
          ttfbNanos < 0 ? -1 : ttfbNanos / 1000, requestBytes, responseBytes,
          endpoint == null ? null : endpoint.hostPort(), decision == null ? null : decision.request().incomingModel(),
          decision == null ? null : decision.request().targetModel(),
          decision == null ? req.getHeader(RequestDirector.REQUEST_ID) : decision.request().requestId(), attempts,
          route == null || route.pool() == null ? null : route.pool().key().toString(), error));
    }
  }
}
