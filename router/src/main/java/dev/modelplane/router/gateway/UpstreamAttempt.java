package dev.modelplane.router.gateway;

import dev.modelplane.router.request.Destination;
import dev.modelplane.router.request.RoutingDecision;
import dev.modelplane.router.scheduling.ResponseProgress;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One try at sending a decided request to its destination: opens the upstream request, sends the decision's body
 * and relays the response ({@link ResponseRelay}). Until the client has a response byte it can fail, and be retried:
 * connecting, sending, a response failing before its first body byte, or none within the response timeout (the
 * upstream connection is then closed). The director hears of the attempt's start and of its end exactly once. Once
 * {@link #detach detached} (given up on, superseded, or its exchange over), nothing more is reported.
 */
final class UpstreamAttempt {
  /** The exchange's log lines, this attempt's included, share one logger. */
  private static final Logger LOG = LoggerFactory.getLogger(ProxyExchange.class);

  /** What the exchange hears from its current attempt. */
  interface Listener {
    /** The upstream request is open, its body about to go; {@code false} when the exchange no longer wants it. */
    boolean opened(UpstreamAttempt attempt);

    /** The attempt failed, and is closed, before the client got a response byte. */
    void failed(UpstreamAttempt attempt, Throwable cause, boolean connectFailure);

    /** The response's first body byte, or its end, came: its head goes to the client now. */
    void relayStarted(UpstreamAttempt attempt, int status);

    /** The response is over, and the attempt closed: relayed to its end ({@code error} null) or ended early. */
    void relayEnded(int status, String error);
  }

  private final GatewayContext ctx;
  private final RoutingDecision decision;
  private final Listener listener;
  private final Deadline responseTimer;
  private HttpClientRequest request;
  private ResponseRelay relay;
  private boolean open;
  private boolean completed;
  private boolean detached;

  UpstreamAttempt(GatewayContext ctx, RoutingDecision decision, Listener listener) {
    this.ctx = ctx;
    this.decision = decision;
    this.listener = listener;
    this.responseTimer = new Deadline(ctx.vertx());
  }

  RoutingDecision decision() {
    return decision;
  }

  Destination target() {
    return decision.destination();
  }

  Listener listener() {
    return listener;
  }

  /**
   * Sends {@code client}'s request to the destination, with the decision's changes, and relays the response.
   *
   * @param host the {@code Host} to send (an HTTPRoute's URL rewrite), or {@code null} for the destination's
   */
  void start(HttpServerRequest client, String uri, String host, ResponseProgress progress) {
    Destination target = target();
    RequestOptions ro = new RequestOptions()
        .setMethod(client.method())
        .setHost(target.host())
        .setPort(target.port())
        .setURI(ForwardedHeaders.upstreamUri(uri, decision))
        .setHeaders(ForwardedHeaders.upstreamRequest(client.headers(), decision));
    if (host != null) {
      ro.putHeader(io.vertx.core.http.HttpHeaders.HOST, host);
    }
    ctx.director().started(decision);
    if (decision.input().trace().active()) { // this attempt's span as the model server's parent
      decision.input().trace().injectUpstream((k, v) -> ro.getHeaders().set(k, v));
    }
    open = true;
    ctx.clientFor(decision.input().pool()).request(ro).onComplete(ar -> {
      if (detached) {
        if (ar.succeeded()) {
          ar.result().reset();
        }
        return;
      }
      if (ar.failed()) {
        fail(ar.cause(), true);
        return;
      }
      request = ar.result();
      if (!listener.opened(this)) {
        return;
      }
      Duration timeout = ctx.limits().upstreamResponseTimeout();
      responseTimer.arm(timeout, () -> {
        if (!detached) {
          timedOut("response", timeout, 0);
          fail(new TimeoutException("no response within " + timeout.toSeconds() + " s"), false);
        }
      });
      request.send(Buffer.buffer(decision.body())).onComplete(rar -> {
        if (detached) {
          return;
        }
        if (rar.failed()) {
          fail(rar.cause(), false);
          return;
        }
        relay = new ResponseRelay(ctx, client.response(), rar.result(), this, progress);
        relay.start();
      });
    });
  }

  /** Fails the attempt before the client got a response byte. */
  void fail(Throwable cause, boolean connectFailure) {
    close(false);
    listener.failed(this, cause, connectFailure);
  }

  /** The response's first body byte (or its end) came: the response timeout no longer applies. */
  void responseStarted() {
    responseTimer.cancel();
  }

  /**
   * Gives up on an upstream silent for {@code limit}: its connection is closed (an HTTP/1.1 request cannot be
   * cancelled otherwise), the timeout counted and logged.
   */
  void timedOut(String phase, Duration limit, long relayedBytes) {
    detach();
    reset();
    ctx.metrics().gatewayUpstreamTimeouts.inc(phase);
    LOG.atWarn().addKeyValue("request_id", decision.request().requestId())
        .addKeyValue("endpoint", target().hostPort()).addKeyValue("phase", phase).addKeyValue("timeout", limit)
        .addKeyValue("relayed_bytes", relayedBytes).log("upstream timed out");
  }

  /** Resets the upstream request, if open. */
  void reset() {
    if (request != null) {
      request.reset();
    }
  }

  /** Ends the attempt's accounting with the director, once; {@code completed}: its response reached its end. */
  void close(boolean completed) {
    responseTimer.cancel();
    if (open) {
      open = false;
      this.completed = completed;
      ctx.director().finished(decision, completed);
    }
  }

  /** Whether the attempt ended with its response complete. */
  boolean completed() {
    return completed;
  }

  /** Response body bytes relayed to the client. */
  long relayed() {
    return relay == null ? 0 : relay.relayed();
  }

  /** Nothing more of this attempt, or of its response, is reported. */
  void detach() {
    detached = true;
    responseTimer.cancel();
    if (relay != null) {
      relay.detach();
    }
  }
}
