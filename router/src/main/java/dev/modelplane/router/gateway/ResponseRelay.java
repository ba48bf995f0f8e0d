package dev.modelplane.router.gateway;

import dev.modelplane.router.request.ErrorCode;
import dev.modelplane.router.request.RequestParsers;
import dev.modelplane.router.scheduling.ResponseProgress;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Relays an attempt's upstream response to the client. The head is held until the first body byte (or the end): an
 * upstream that dies after its headers but before any token — e.g. while the request waits for prefill — fails the
 * attempt, which can still be retried. Then the body goes out chunk by chunk with back-pressure: the upstream is
 * paused while the client's socket is full, and a client that leaves it full for the client idle timeout is dropped.
 * An upstream that fails mid-response, or pauses longer than the idle timeout on its own, ends the client's response
 * early: a stream gets an error event (OpenAI's or Anthropic's shape) first.
 */
final class ResponseRelay {
  /** The exchange's log lines, this relay's included, share one logger. */
  private static final Logger LOG = LoggerFactory.getLogger(ProxyExchange.class);

  private final GatewayContext ctx;
  private final HttpServerResponse resp;
  private final HttpClientResponse upstream;
  private final UpstreamAttempt attempt;
  private final ResponseProgress progress;
  private final Deadline idleTimer;
  private final Deadline clientTimer;
  private boolean started;
  private boolean streamed;
  private boolean pausedForClient;
  private boolean detached;
  private long lastChunkNanos;
  private long relayed;

  ResponseRelay(GatewayContext ctx, HttpServerResponse resp, HttpClientResponse upstream, UpstreamAttempt attempt,
      ResponseProgress progress) {
    this.ctx = ctx;
    this.resp = resp;
    this.upstream = upstream;
    this.attempt = attempt;
    this.progress = progress;
    this.idleTimer = new Deadline(ctx.vertx());
    this.clientTimer = new Deadline(ctx.vertx());
  }

  /** Starts reading the upstream response. */
  void start() {
    upstream.handler(this::onChunk);
    upstream.exceptionHandler(t -> {
      if (detached) {
        return;
      }
      if (!started) {
        attempt.fail(t, false);
      } else {
        // Mid-stream failure: the client already has bytes, so abort rather than pretend the body is complete.
        abort("upstream_failed", "upstream failed mid-response: " + t.getMessage());
      }
    });
    upstream.endHandler(v -> {
      if (!detached) {
        idleTimer.cancel();
        if (!started) {
          writeHead();
        }
        // Accounting first: whoever reads the response's end may look at the metrics right away.
        attempt.close(true);
        attempt.listener().relayEnded(upstream.statusCode(), null);
        resp.end();
      }
    });
  }

  /** Body bytes relayed so far. */
  long relayed() {
    return relayed;
  }

  private void onChunk(Buffer chunk) {
    if (detached) {
      return;
    }
    lastChunkNanos = ctx.nanoClock().getAsLong();
    if (!started) {
      writeHead();
      idleTimer.arm(ctx.limits().upstreamIdleTimeout(), this::idleCheck);
    }
    relayed += chunk.length();
    if (progress != null) {
      progress.onBody(chunk.getBytes(), 0, chunk.length(), lastChunkNanos);
    }
    resp.write(chunk);
    if (resp.writeQueueFull() && !pausedForClient) {
      // Back-pressure: stop reading the upstream until the client's socket drains, and drop a client that stops
      // reading altogether.
      pausedForClient = true;
      upstream.pause();
      clientTimer.arm(ctx.limits().clientIdleTimeout(), this::clientNotReading);
      resp.drainHandler(v -> {
        pausedForClient = false;
        clientTimer.cancel();
        upstream.resume();
      });
    }
  }

  private void writeHead() {
    started = true;
    String contentType = upstream.getHeader(HttpHeaders.CONTENT_TYPE);
    streamed = contentType != null && contentType.contains("text/event-stream");
    attempt.responseStarted();
    attempt.listener().relayStarted(attempt, upstream.statusCode());
    resp.setStatusCode(upstream.statusCode());
    resp.setStatusMessage(upstream.statusMessage());
    ForwardedHeaders.copyResponse(upstream.headers(), resp.headers());
    resp.putHeader(ForwardedHeaders.SERVED, attempt.target().hostPort());
    attempt.decision().request().responseHeaders().forEach(resp::putHeader);
    String length = upstream.getHeader(HttpHeaders.CONTENT_LENGTH);
    if (length != null) {
      resp.putHeader(HttpHeaders.CONTENT_LENGTH, length);
    } else {
      resp.setChunked(true);
    }
    resp.writeHead();
  }

  /** The idle timer fired: a stall unless chunks came since it was armed, or the upstream is paused for the client. */
  private void idleCheck() {
    if (detached) {
      return;
    }
    Duration limit = ctx.limits().upstreamIdleTimeout();
    long quiet = ctx.nanoClock().getAsLong() - lastChunkNanos;
    if (pausedForClient || quiet < limit.toNanos()) {
      idleTimer.arm(pausedForClient ? limit : Duration.ofNanos(limit.toNanos() - quiet), this::idleCheck);
      return;
    }
    attempt.timedOut("idle", limit, relayed);
    abort("upstream_idle_timeout", "upstream " + attempt.target().hostPort() + " sent no data for "
        + limit.toSeconds() + " s");
  }

  /**
   * Ends a response the client already has bytes of: a stream gets an error event in its API's shape, then the
   * connection is closed without the body's end (so no client takes it for complete); any other body is cut off the
   * same way.
   * The exchange ends first, so that it does not take the reset for the client leaving.
   */
  private void abort(String reason, String message) {
    detach();
    attempt.close(false);
    ctx.metrics().gatewayAbortedStreams.inc(reason);
    attempt.listener().relayEnded(upstream.statusCode(), message);
    if (streamed && !resp.ended()) {
      String event = RequestParsers.defaults().errorShape(attempt.decision().input().path())
          .streamEvent(ErrorCode.GATEWAY_TIMEOUT, message);
      resp.write(Buffer.buffer(event)).onComplete(ar -> resp.reset());
      ctx.vertx().setTimer(5_000, t -> resp.reset()); // a client not reading never completes the write
    } else if (!resp.ended()) {
      resp.reset();
    }
  }

  /** The client left a streamed response unread for the client idle timeout: it is dropped. */
  private void clientNotReading() {
    if (detached) {
      return;
    }
    ctx.metrics().gatewayClientTimeouts.inc("not_reading");
    ctx.metrics().gatewayAbortedStreams.inc("client_not_reading");
    LOG.atInfo().addKeyValue("request_id", attempt.decision().request().requestId())
        .addKeyValue("timeout", ctx.limits().clientIdleTimeout())
        .log("client stopped reading its response; closing it");
    detach();
    attempt.reset();
    attempt.close(false);
    attempt.listener().relayEnded(499, "client stopped reading"); // before the reset, as in abort
    resp.reset();
  }

  /** Nothing more of this response is reported; its timers stop. */
  void detach() {
    detached = true;
    idleTimer.cancel();
    clientTimer.cancel();
  }
}
