package dev.modelplane.router.gateway;

import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.request.ErrorCode;
import dev.modelplane.router.request.RequestDirector;
import dev.modelplane.router.request.RequestParsers;
import dev.modelplane.router.request.RouterException;
import dev.modelplane.router.request.RoutingDecision;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client request through the gateway, as a state machine over {@link ExchangePhase}: accept ({@link RequestRoute},
 * then {@link BodyReader}: 413 over the body limit, 429 with {@code Retry-After} past the in-flight bytes budget), ask
 * the director where it goes, forward ({@link UpstreamAttempt}), retry elsewhere while the client has no response byte
 * ({@link RetryPolicy}), relay the response with back-pressure ({@link ResponseRelay}: an upstream that stalls or
 * fails mid-response ends it early, with an SSE error event for streams), and report every step back to the director
 * ({@link ExchangeReport}). The client leaving resets the upstream request. The phase moves only in {@link #enter},
 * along {@link ExchangePhase#canBecome}; {@link #finish} ends the exchange once, releasing the body's budget.
 * Everything runs on the event loop of the client connection.
 */
final class ProxyExchange implements BodyReader.Listener, UpstreamAttempt.Listener {
  private static final Logger LOG = LoggerFactory.getLogger(ProxyExchange.class);
  private final HttpServerRequest req;
  private final HttpServerResponse resp;
  private final GatewayContext ctx;
  private final ClientConnectionGuard guard;
  private final Context context;
  private final BodyReader body;
  private final RetryPolicy retries;
  private final ExchangeReport report;

  private ExchangePhase phase = ExchangePhase.ACCEPTING;
  private RequestRoute route;
  private RequestDirector.PendingDecision pending;
  private UpstreamAttempt attempt;
  /** The body bytes of a {@code GET /v1/models} answer; a relayed response counts its own. */
  private long passedBytes;

  ProxyExchange(HttpServerRequest req, GatewayContext ctx, ClientConnectionGuard guard) {
    this.req = req;
    this.resp = req.response();
    this.ctx = ctx;
    this.guard = guard;
    this.context = Context.isOnEventLoopThread() ? Vertx.currentContext() : null;
    this.report = new ExchangeReport(ctx, req);
    this.body = new BodyReader(ctx.options().maxBodyBytes(), ctx.director().inflight());
    this.retries = new RetryPolicy(ctx);
  }

  ExchangePhase phase() {
    return phase;
  }

  void run() {
    ctx.metrics().gatewayActive.add(1);
    resp.closeHandler(v -> clientGone());
    resp.exceptionHandler(t -> clientGone());
    try {
      int port = req.localAddress() == null ? -1 : req.localAddress().port();
      route = RequestRoute.resolve(req, ctx.pools(), ctx.director().limits().paths(),
          ctx.routes() != null && ctx.routes().get().serves(port));
    } catch (RouterException e) {
      fail(e);
      return;
    }
    report.routed(route);
    switch (route.kind()) {
      case INFERENCE -> {
        enter(ExchangePhase.READING);
        body.read(req, guard, this);
      }
      case MODEL_LIST -> passThrough();
    }
  }

  private void enter(ExchangePhase next) {
    if (!phase.canBecome(next)) {
      throw new IllegalStateException("exchange in phase " + phase + " cannot go to " + next);
    }
    phase = next;
  }

  @Override
  public void bodyRefused(RouterException refusal, boolean closeConnection) {
    if (closeConnection) {
      resp.putHeader(HttpHeaders.CONNECTION, "close");
    }
    fail(refusal);
  }

  @Override
  public void bodyRead(byte[] bytes) {
    enter(ExchangePhase.DECIDING);
    try {
      if (route.routed()) {
        route = GatewayRouting.apply(route, req, bytes, ctx.routes().get(), ctx.pools());
        report.routed(route);
      } else if (route.pool() == null) {
        route = route.withPool(choosePool(bytes));
        report.routed(route);
      }
      pending = ctx.director().route(route.input(req, bytes, report.startNanos(), report.trace()));
    } catch (RouterException e) {
      fail(e);
      return;
    } catch (RuntimeException e) { // a bug below: answer 500 and end the exchange rather than leave it open
      LOG.warn("routing failed", e);
      fail(e);
      return;
    }
    pending.decision().whenComplete((d, err) -> onContext(() -> decided(d, err)));
  }

  private void decided(RoutingDecision d, Throwable err) {
    if (err != null) {
      fail(unwrap(err));
    } else if (phase == ExchangePhase.ABANDONED) {
      report.decided(d);
      finish(499, "client disconnected"); // decided after the client left: nothing was sent
    } else if (phase == ExchangePhase.DECIDING) {
      forward(d);
    }
  }

  private void forward(RoutingDecision decision) {
    enter(ExchangePhase.CONNECTING);
    detach();
    report.decided(decision);
    report.attempting(decision.destination());
    attempt = new UpstreamAttempt(ctx, decision, this);
    attempt.start(req, route.uri(), route.host(), report.progress());
  }

  @Override
  public boolean opened(UpstreamAttempt a) {
    if (phase == ExchangePhase.ABANDONED) {
      a.reset();
      a.close(false);
      finish(499, "client disconnected");
      return false;
    }
    enter(ExchangePhase.WAITING);
    return true;
  }

  /** Retried while the policy allows, else 503, or 504 after a timeout. */
  @Override
  public void failed(UpstreamAttempt a, Throwable cause, boolean connectFailure) {
    if (phase == ExchangePhase.ABANDONED) {
      finish(499, "client disconnected");
      return;
    }
    RoutingDecision next = retries.next(a.decision(), cause, connectFailure, report.attempts(), req.method());
    if (next != null) {
      forward(next);
    } else {
      fail(RetryPolicy.exhausted(a.target(), cause));
    }
  }

  @Override
  public void relayStarted(UpstreamAttempt a, int status) {
    enter(ExchangePhase.RELAYING);
    report.responseStarted(status);
    ctx.director().responseReceived(a.decision(), status, a.target());
  }

  @Override
  public void relayEnded(int status, String error) {
    finish(status, error);
  }

  /** The pool serving the body's model, when no pool was named and several are served. */
  private EndpointPool choosePool(byte[] bytes) {
    if (ctx.models() == null) {
      EndpointPool fallback = ctx.pools().resolve(null);
      if (fallback == null) {
        throw new RouterException(ErrorCode.NOT_FOUND, "no inference pool");
      }
      return fallback;
    }
    return ModelRouting.choose(ctx.models(), req.getHeader(HttpHeaders.CONTENT_TYPE), bytes);
  }

  private void passThrough() {
    enter(ExchangePhase.PASSING_THROUGH);
    if (guard != null) {
      guard.bodyRead(req); // nothing to read: its answer is the upstream's business
    }
    if (route.routed()) {
      try {
        route = GatewayRouting.apply(route, req, null, ctx.routes().get(), ctx.pools());
      } catch (RouterException e) {
        fail(e);
        return;
      }
      report.routed(route);
    } else if (route.pool() == null && ctx.models() != null) {
      listModels();
      return;
    }
    if (route.pool() == null) {
      route = route.withPool(ctx.pools().resolve(null));
      if (route.pool() == null) {
        fail(new RouterException(ErrorCode.NOT_FOUND, "no inference pool"));
        return;
      }
      report.routed(route);
    }
    var target = ctx.director().any(route.pool(), null);
    if (target == null) {
      fail(new RouterException(ErrorCode.SERVICE_UNAVAILABLE, "no endpoint available"));
      return;
    }
    report.attempting(target);
    ModelListPassThrough.relay(ctx, route.pool(), target, route.uri(), resp).onComplete(ar -> {
      if (ar.succeeded()) {
        passedBytes = ar.result().bytes();
        finish(ar.result().status(), null);
      } else {
        fail(new RouterException(ErrorCode.SERVICE_UNAVAILABLE, "upstream failed: " + ar.cause().getMessage()));
      }
    });
  }

  /** The gateway's own {@code GET /v1/models} (and {@code /v1/models/<id>}), across the pools. */
  private void listModels() {
    String id = route.path().startsWith("/v1/models/") ? route.path().substring("/v1/models/".length()) : "";
    String json = id.isEmpty() ? ModelRouting.list(ctx.models()) : ModelRouting.one(ctx.models(), id);
    if (json == null) {
      fail(new RouterException(ErrorCode.MODEL_NOT_FOUND, "The model `" + id + "` does not exist."));
      return;
    }
    passedBytes = json.length();
    resp.setStatusCode(200).putHeader(HttpHeaders.CONTENT_TYPE, "application/json").end(json);
    finish(200, null);
  }

  @Override
  public void clientGone() {
    switch (phase) {
      case ACCEPTING, READING, PASSING_THROUGH -> finish(499, "client disconnected");
      case DECIDING -> {
        enter(ExchangePhase.ABANDONED); // first: cancelling may complete the decision right away
        pending.cancel(); // the decision's callback ends the exchange
      }
      case CONNECTING -> enter(ExchangePhase.ABANDONED); // so does the connection's
      case WAITING, RELAYING -> {
        detach(); // first: resetting fails the attempt right away
        attempt.reset();
        attempt.close(false);
        finish(499, "client disconnected");
      }
      case ABANDONED, DONE -> { }
    }
  }

  private void fail(Throwable t) {
    if (phase == ExchangePhase.DONE) {
      return;
    }
    RouterException e = t instanceof RouterException re ? re
        : new RouterException(ErrorCode.INTERNAL, "internal error");
    if (phase != ExchangePhase.ABANDONED && !resp.headWritten()) {
      String json = RequestParsers.defaults().errorShape(route != null ? route.path() : req.path())
          .body(e.code(), e.getMessage());
      if (e.retryAfterSeconds() > 0) {
        resp.putHeader(HttpHeaders.RETRY_AFTER, String.valueOf(e.retryAfterSeconds()));
      }
      resp.setStatusCode(e.code().httpStatus())
          .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
          .end(json);
    }
    finish(e.code().httpStatus(), e.getMessage());
  }

  /** Ends the exchange, once: releases the body's budget, stops the timers, reports the outcome. */
  private void finish(int status, String error) {
    if (phase == ExchangePhase.DONE) {
      return;
    }
    enter(ExchangePhase.DONE);
    body.release();
    detach();
    ctx.metrics().gatewayActive.add(-1);
    report.finished(status, error, attempt != null && attempt.completed(), body.received(),
        attempt != null ? attempt.relayed() : passedBytes);
  }

  /** Stops hearing from the current attempt: superseded, or the exchange is over. */
  private void detach() {
    if (attempt != null) {
      attempt.detach();
    }
  }

  private void onContext(Runnable r) {
    if (context != null && Vertx.currentContext() != context) {
      context.runOnContext(v -> r.run());
    } else {
      r.run();
    }
  }

  private static Throwable unwrap(Throwable t) {
    while (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
