package dev.modelplane.router.gateway;

import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.request.ErrorCode;
import dev.modelplane.router.request.RequestParsers;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one client connection from holding the gateway: with no request in progress (just opened, or after its last
 * response) it must deliver a request head within the idle timeout — which also ends a client trickling its headers
 * — and a request's body must then arrive within the request timeout (408 otherwise, in the error shape of the
 * request path's API). A request in progress is never
 * timed out here: waiting for a long generation is the upstream timeouts' business. Runs on the connection's event
 * loop.
 */
final class ClientConnectionGuard {
  private static final Logger LOG = LoggerFactory.getLogger(ClientConnectionGuard.class);

  private final HttpConnection connection;
  private final GatewayOptions.Limits limits;
  private final RouterMetrics metrics;
  private final Deadline deadline;
  private int inFlight;
  private HttpServerRequest reading;

  ClientConnectionGuard(Vertx vertx, HttpConnection connection, GatewayOptions.Limits limits, RouterMetrics metrics) {
    this.connection = connection;
    this.limits = limits;
    this.metrics = metrics;
    this.deadline = new Deadline(vertx);
    armIdle();
  }

  /** A request head arrived: its body must follow within the request timeout. */
  void requestStarted(HttpServerRequest req) {
    inFlight++;
    reading = req;
    deadline.arm(limits.clientRequestTimeout(), this::requestTimedOut);
    req.response().endHandler(v -> responseEnded(req));
  }

  /** The request's body has been read completely. */
  void bodyRead(HttpServerRequest req) {
    if (reading == req) {
      reading = null;
      deadline.cancel();
    }
  }

  private void responseEnded(HttpServerRequest req) {
    inFlight--;
    if (reading == req) {
      reading = null;
      deadline.cancel();
    }
    if (inFlight <= 0 && reading == null) {
      armIdle();
    }
  }

  void closed() {
    deadline.cancel();
  }

  private void armIdle() {
    deadline.arm(limits.clientIdleTimeout(), () -> {
      metrics.gatewayClientTimeouts.inc("idle");
      LOG.atDebug().addKeyValue("remote", String.valueOf(connection.remoteAddress()))
          .addKeyValue("timeout", limits.clientIdleTimeout()).log("closing idle client connection");
      connection.close();
    });
  }

  private void requestTimedOut() {
    metrics.gatewayClientTimeouts.inc("request_read");
    Duration timeout = limits.clientRequestTimeout();
    LOG.atInfo().addKeyValue("remote", String.valueOf(connection.remoteAddress())).addKeyValue("timeout", timeout)
        .log("client did not send its request in time; closing the connection");
    HttpServerRequest req = reading;
    reading = null;
    HttpServerResponse resp = req == null ? null : req.response();
    if (resp != null && !resp.headWritten() && !resp.ended()) {
      resp.setStatusCode(ErrorCode.REQUEST_TIMEOUT.httpStatus())
          .putHeader(HttpHeaders.CONNECTION, "close")
          .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
          .end(RequestParsers.defaults().errorShape(req.path()).body(ErrorCode.REQUEST_TIMEOUT,
              "request not received within " + timeout.toSeconds() + " s"))
          .onComplete(ar -> connection.close());
    } else {
      connection.close();
    }
  }
}
