package dev.modelplane.router.gateway;



import dev.modelplane.router.datalayer.UpstreamBodies;
import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.request.Destination;
import dev.modelplane.router.request.ErrorCode;
import dev.modelplane.router.request.InflightBytes;
import dev.modelplane.router.request.OpenAiErrors;
import dev.modelplane.router.request.RequestDirector;
import dev.modelplane.router.request.RequestInput;
import dev.modelplane.router.request.RouterException;
import dev.modelplane.router.request.RoutingDecision;
import dev.modelplane.router.scheduling.ResponseOutcome;
import dev.modelplane.router.scheduling.ResponseProgress;
import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.RequestOptions;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client request through the gateway — the accept and forward steps of the request lifecycle: read the body (413
 * over the limit, 429 with {@code Retry-After} when the in-flight bytes budget has no room for it — a declared length
 * is only checked for room, bytes are reserved as they arrive, and released once the body is over the limit or in
 * {@link #finish}), ask the director where it goes, forward, stream the response back chunk by chunk with
 * back-pressure, retry another destination if the upstream fails before the first response body byte (the response head is held
 * until then), reset the upstream request when the client goes away, and report every step back to the director.
 * An upstream that sends no body byte within the response timeout is given up on like a failed one (retried while
 * nothing was relayed, else 504); one that pauses longer than the idle timeout mid-response ends the client's response
 * early (an SSE error event for streams). Everything runs on the event loop of the client connection.
 */
final class ProxyExchange {
  private static final Logger LOG = LoggerFactory.getLogger(ProxyExchange.class);
  static final String SERVED_HEADER = "x-gateway-destination-endpoint-served";

  private final HttpServerRequest req;
  private final HttpServerResponse resp;
  private final HttpClient client;
  private final GatewayOptions options;
  private final RequestDirector director;
  private final PoolRegistry pools;
  private final RouterMetrics metrics;
  private final AccessLog accessLog;
  private final LongSupplier nanoClock;
  private final Context context;
  private final long startNanos;

  private final BoundedBody body;
  /** This request's share of the in-flight bytes budget, released in {@link #finish}. */
  private InflightBytes.Reservation reservation;
  private boolean clientGone;
  private boolean done;
  private RequestDirector.PendingDecision pending;
  private RoutingDecision decision;
  private Destination current;
  private HttpClientRequest upstream;
  private boolean responseStarted;
  private long ttfbNanos = -1;
  private long responseBytes;
  private final ResponseProgress progress;
  private int attempts;
  private boolean attemptOpen;
  private boolean completed;
  private int upstreamStatus;
  private final Set<String> failed = new HashSet<>();
  private EndpointPool pool;
  private final ClientConnectionGuard guard;
  private final GatewayOptions.Limits limits;
  /** Upstream response/idle timer, and the client-not-reading timer. */
  private final Deadline upstreamTimer;
  private final Deadline clientTimer;
  /** Bumped when an attempt is abandoned (timeout): callbacks of older attempts are ignored. */
  private int attemptSeq;
  private long lastChunkNanos;
  private boolean pausedForClient;
  private boolean streamedResponse;
  /** The URI and path forwarded: the client's, or what follows a pool path prefix. */
  private String uri;
  private String path;

  ProxyExchange(HttpServerRequest req, HttpClient client, GatewayOptions options, RequestDirector director,
      PoolRegistry pools, RouterMetrics metrics, AccessLog accessLog, LongSupplier nanoClock,
      ClientConnectionGuard guard) {
    this.req = req;
    this.guard = guard;
    this.limits = options.limits();
    this.resp = req.response();
    this.client = client;
    this.options = options;
    this.body = new BoundedBody(options.maxBodyBytes());
    this.director = director;
    this.progress = director.responseProgress();
    this.pools = pools;
    this.metrics = metrics;
    this.accessLog = accessLog;
    this.nanoClock = nanoClock;
    this.context = Context.isOnEventLoopThread() ? io.vertx.core.Vertx.currentContext() : null;
    this.startNanos = nanoClock.getAsLong();
    io.vertx.core.Vertx vertx = context == null ? null : context.owner();
    this.upstreamTimer = new Deadline(vertx);
    this.clientTimer = new Deadline(vertx);
    this.uri = req.uri();
    this.path = req.path();
  }

  void run() {
    metrics.gatewayActive.add(1);
    resp.closeHandler(v -> onClientGone());
    resp.exceptionHandler(t -> onClientGone());
    String unavailable = pools.unavailableReason();
    if (unavailable != null) {
      fail(new RouterException(ErrorCode.SERVICE_UNAVAILABLE, unavailable));
      return;
    }
    PoolPath poolPath;
    try {
      poolPath = PoolPath.parse(req.uri());
    } catch (RouterException e) {
      fail(e);
      return;
    }
    String poolName = poolPath != null ? poolPath.pool().toString() : req.getHeader(PoolRegistry.POOL_HEADER);
    if (poolPath != null) {
      uri = poolPath.uri();
      int query = uri.indexOf('?');
      path = query < 0 ? uri : uri.substring(0, query);
    }
    pool = pools.resolve(poolName);
    if (pool == null) {
      fail(new RouterException(ErrorCode.NOT_FOUND, "no such inference pool: " + poolName));
      return;
    }
    if (req.method() == HttpMethod.GET && path.startsWith("/v1/models")) {
      if (guard != null) {
        guard.bodyRead(req); // nothing to read: its answer is the upstream's business
      }
      passThrough();
      return;
    }
    if (req.method() != HttpMethod.POST) {
      fail(new RouterException(ErrorCode.NOT_FOUND, "unsupported route " + req.method() + " " + path));
      return;
    }
    try {
      body.checkDeclared(req.getHeader(HttpHeaders.CONTENT_LENGTH));
    } catch (RouterException e) {
      if (e.code() == ErrorCode.PAYLOAD_TOO_LARGE) {
        resp.putHeader(HttpHeaders.CONNECTION, "close");
      }
      fail(e);
      return;
    }
    reservation = director.inflight().reserve();
    long declared = body.declaredWithinLimit(req.getHeader(HttpHeaders.CONTENT_LENGTH));
    // Only a check: bytes are reserved as they arrive, so idle clients declaring large bodies hold nothing.
    if (declared > 0 && !director.inflight().hasRoom(declared)) {
      resp.putHeader(HttpHeaders.CONNECTION, "close");
      fail(director.inflight().refusal()); // before reading a byte of the body
      return;
    }
    req.handler(this::onChunk);
    req.exceptionHandler(t -> onClientGone());
    req.endHandler(v -> onBody());
  }

  private void onChunk(Buffer chunk) {
    BoundedBody.State state = body.append(chunk);
    if (state != BoundedBody.State.COLLECTING) {
      reservation.release(); // nothing is kept of a body over the limit, however long the client trickles the rest
    }
    if (state == BoundedBody.State.OVER_HARD_LIMIT && !done) {
      resp.putHeader(HttpHeaders.CONNECTION, "close");
      fail(body.tooLarge());
    } else if (state == BoundedBody.State.COLLECTING && !done && !reservation.ensure(body.received())) {
      body.discard();
      resp.putHeader(HttpHeaders.CONNECTION, "close");
      fail(director.inflight().refusal());
    }
  }

  private void onBody() {
    if (guard != null) {
      guard.bodyRead(req);
    }
    if (done) {
      return;
    }
    if (body.overLimit()) {
      fail(body.tooLarge());
      return;
    }
    Map<String, String> headers = new HashMap<>();
    req.headers().forEach(e -> headers.merge(e.getKey().toLowerCase(Locale.ROOT), e.getValue(), (a, b) -> a + "," + b));
    headers.put(":path", uri);
    pending = director.route(new RequestInput(pool, path, headers, body.bytes(), null, startNanos));
    pending.decision().whenComplete((d, err) -> onContext(() -> {
      if (err != null) {
        fail(unwrap(err));
      } else {
        decision = d;
        if (clientGone) {
          finish(499, "client disconnected"); // decided after the client left: nothing was sent
        } else {
          send();
        }
      }
    }));
  }

  private void send() {
    Destination target = decision.destination();
    current = target;
    attempts++;
    MultiMap headers = ForwardedHeaders.upstreamRequest(req.headers(), decision);
    RequestOptions ro = new RequestOptions()
        .setMethod(req.method())
        .setHost(target.host())
        .setPort(target.port())
        .setURI(ForwardedHeaders.upstreamUri(uri, decision))
        .setHeaders(headers);
    director.started(decision);
    attemptOpen = true;
    int seq = ++attemptSeq;
    client.request(ro).onComplete(ar -> {
      if (seq != attemptSeq || done) {
        if (ar.succeeded()) {
          ar.result().reset();
        }
        return;
      }
      if (ar.failed()) {
        upstreamFailedBeforeResponse(target, ar.cause(), true);
        return;
      }
      HttpClientRequest up = ar.result();
      if (clientGone) {
        up.reset();
        closeAttempt(false);
        finish(499, "client disconnected");
        return;
      }
      upstream = up;
      upstreamTimer.arm(limits.upstreamResponseTimeout(), () -> upstreamTimedOut(seq, target, "response"));
      up.send(Buffer.buffer(decision.body())).onComplete(rar -> {
        if (seq != attemptSeq) {
          return;
        }
        if (rar.failed()) {
          if (!responseStarted) {
            upstreamFailedBeforeResponse(target, rar.cause(), false);
          }
          return;
        }
        onResponse(seq, target, rar.result());
      });
    });
  }

  /**
   * The upstream sent nothing for too long: closes its connection (an HTTP/1.1 request cannot be cancelled
   * otherwise) and retries elsewhere while nothing was relayed, else ends the client's response early.
   */
  private void upstreamTimedOut(int seq, Destination target, String phase) {
    if (seq != attemptSeq || done) {
      return;
    }
    Duration limit = phase.equals("idle") ? limits.upstreamIdleTimeout() : limits.upstreamResponseTimeout();
    if (phase.equals("idle")) {
      long quiet = nanoClock.getAsLong() - lastChunkNanos;
      if (pausedForClient || quiet < limit.toNanos()) {
        // Chunks arrived since the timer was armed, or we paused the upstream ourselves: not a stall.
        upstreamTimer.arm(pausedForClient ? limit : Duration.ofNanos(limit.toNanos() - quiet),
            () -> upstreamTimedOut(seq, target, phase));
        return;
      }
    }
    attemptSeq++;
    HttpClientRequest up = upstream;
    upstream = null;
    if (up != null) {
      up.reset();
    }
    metrics.gatewayUpstreamTimeouts.inc(phase);
    LOG.atWarn().addKeyValue("request_id", requestId()).addKeyValue("endpoint", target.hostPort())
        .addKeyValue("phase", phase).addKeyValue("timeout", limit)
        .addKeyValue("relayed_bytes", responseBytes).log("upstream timed out");
    TimeoutException cause = new TimeoutException(phase.equals("idle") ? "no data for " + limit.toSeconds() + " s"
        : "no response within " + limit.toSeconds() + " s");
    if (!responseStarted) {
      upstreamFailedBeforeResponse(target, cause, false);
    } else {
      abortStartedResponse("upstream_idle_timeout", "upstream " + target.hostPort() + " sent no data for "
          + limit.toSeconds() + " s");
    }
  }

  /**
   * Ends a response the client already has bytes of: a stream gets an OpenAI-style error event, then the connection
   * is closed without the body's end (so no client takes it for complete); any other body is cut off the same way.
   */
  private void abortStartedResponse(String reason, String message) {
    upstreamTimer.cancel();
    clientTimer.cancel();
    closeAttempt(false);
    metrics.gatewayAbortedStreams.inc(reason);
    if (streamedResponse && !clientGone && !resp.ended()) {
      String json = OpenAiErrors.body(ErrorCode.GATEWAY_TIMEOUT, message);
      resp.write(Buffer.buffer("data: " + json + "\n\n")).onComplete(ar -> resp.reset());
      if (context != null) {
        context.owner().setTimer(5_000, t -> resp.reset()); // a client not reading never completes the write
      }
    } else if (!resp.ended()) {
      resp.reset();
    }
    finish(upstreamStatus, message);
  }

  private void upstreamFailedBeforeResponse(Destination target, Throwable cause, boolean connectFailure) {
    upstreamTimer.cancel();
    closeAttempt(false);
    upstream = null;
    if (clientGone) {
      finish(499, "client disconnected");
      return;
    }
    failed.add(target.hostPort());
    if (connectFailure && target.state() != null) {
      target.state().markUnreachable(nanoClock.getAsLong() + options.unreachableCooldown().toNanos());
    }
    if (attempts < options.maxAttempts()) {
      RoutingDecision next = director.retry(decision, failed);
      if (next == null && cause instanceof HttpClosedException) {
        // A pooled keep-alive connection the upstream closed just as it was reused (e.g. after it refused another
        // request with an error and closed): with no other endpoint left, try the same one on a fresh connection.
        next = decision;
      }
      if (next != null) {
        metrics.gatewayRetries.inc(connectFailure ? "connect"
            : cause instanceof TimeoutException ? "response_timeout" : "before_first_byte");
        decision = next;
        send();
        return;
      }
    }
    if (cause instanceof TimeoutException) {
      fail(new RouterException(ErrorCode.GATEWAY_TIMEOUT, "upstream " + target.hostPort() + " timed out: "
          + cause.getMessage()));
      return;
    }
    fail(new RouterException(ErrorCode.SERVICE_UNAVAILABLE, "upstream " + target.hostPort() + " failed: "
        + cause.getMessage()));
  }

  private void onResponse(int seq, Destination target, HttpClientResponse ur) {
    if (clientGone) {
      upstream.reset();
      closeAttempt(false);
      finish(499, "client disconnected");
      return;
    }
    // The head is held until the first body bytes (or the end): an upstream that dies after its headers but
    // before any token — e.g. while the request waits for prefill — can still be retried on another endpoint.
    ur.handler(chunk -> {
      if (seq != attemptSeq || done) {
        return;
      }
      lastChunkNanos = nanoClock.getAsLong();
      if (!responseStarted) {
        writeHead(target, ur);
        upstreamTimer.arm(limits.upstreamIdleTimeout(), () -> upstreamTimedOut(seq, target, "idle"));
      }
      responseBytes += chunk.length();
      if (progress != null) {
        progress.onBody(chunk.getBytes(), 0, chunk.length(), lastChunkNanos);
      }
      resp.write(chunk);
      if (resp.writeQueueFull() && !pausedForClient) {
        // Back-pressure: stop reading the upstream until the client's socket drains, and drop a client that
        // stops reading altogether.
        pausedForClient = true;
        ur.pause();
        clientTimer.arm(limits.clientIdleTimeout(), this::clientNotReading);
        resp.drainHandler(v -> {
          pausedForClient = false;
          clientTimer.cancel();
          ur.resume();
        });
      }
    });
    ur.exceptionHandler(t -> {
      if (done || seq != attemptSeq) {
        return;
      }
      if (!responseStarted) {
        upstream = null;
        upstreamFailedBeforeResponse(target, t, false);
        return;
      }
      // Mid-stream failure: the client already has bytes, so abort rather than pretend the body is complete.
      abortStartedResponse("upstream_failed", "upstream failed mid-response: " + t.getMessage());
    });
    ur.endHandler(v -> {
      if (!done && seq == attemptSeq) {
        upstreamTimer.cancel();
        if (!responseStarted) {
          writeHead(target, ur);
        }
        // Accounting first: whoever reads the response's end may look at the metrics right away.
        closeAttempt(true);
        finish(ur.statusCode(), null);
        resp.end();
      }
    });
  }

  /** The client left a streamed response unread for the client idle timeout: it is dropped. */
  private void clientNotReading() {
    if (done) {
      return;
    }
    metrics.gatewayClientTimeouts.inc("not_reading");
    metrics.gatewayAbortedStreams.inc("client_not_reading");
    LOG.atInfo().addKeyValue("request_id", requestId()).addKeyValue("timeout", limits.clientIdleTimeout())
        .log("client stopped reading its response; closing it");
    clientGone = true;
    upstreamTimer.cancel();
    if (upstream != null) {
      upstream.reset();
    }
    closeAttempt(false);
    resp.reset();
    finish(499, "client stopped reading");
  }

  private String requestId() {
    return decision == null ? req.getHeader(RequestDirector.REQUEST_ID) : decision.request().requestId();
  }

  private void writeHead(Destination target, HttpClientResponse ur) {
    responseStarted = true;
    String contentType = ur.getHeader(HttpHeaders.CONTENT_TYPE);
    streamedResponse = contentType != null && contentType.contains("text/event-stream");
    ttfbNanos = nanoClock.getAsLong() - startNanos;
    metrics.gatewayTtfb.observe(ttfbNanos / 1e9);
    resp.setStatusCode(ur.statusCode());
    resp.setStatusMessage(ur.statusMessage());
    ForwardedHeaders.copyResponse(ur.headers(), resp.headers());
    upstreamStatus = ur.statusCode();
    director.responseReceived(decision, upstreamStatus, target);
    resp.putHeader(SERVED_HEADER, target.hostPort());
    String length = ur.getHeader(HttpHeaders.CONTENT_LENGTH);
    if (length != null) {
      resp.putHeader(HttpHeaders.CONTENT_LENGTH, length);
    } else {
      resp.setChunked(true);
    }
    resp.writeHead();
  }

  /** Ends the current upstream attempt once: releases its in-flight accounting. */
  private void closeAttempt(boolean completed) {
    if (attemptOpen) {
      attemptOpen = false;
      this.completed = completed;
      director.finished(decision);
    }
  }

  private void passThrough() {
    Destination target = director.any(pool, null);
    if (target == null) {
      fail(new RouterException(ErrorCode.SERVICE_UNAVAILABLE, "no endpoint available"));
      return;
    }
    current = target;
    attempts = 1;
    client.request(new RequestOptions().setMethod(HttpMethod.GET).setHost(target.host()).setPort(target.port())
            .setURI(uri).setIdleTimeout(limits.upstreamResponseTimeout().toMillis()))
        .compose(HttpClientRequest::send)
        .compose(ur -> UpstreamBodies.read(ur, UpstreamBodies.MAX_MODELS_BYTES).map(b -> {
          resp.setStatusCode(ur.statusCode());
          String ct = ur.getHeader(HttpHeaders.CONTENT_TYPE);
          if (ct != null) {
            resp.putHeader(HttpHeaders.CONTENT_TYPE, ct);
          }
          resp.putHeader(SERVED_HEADER, target.hostPort());
          responseBytes = b.length();
          resp.end(b);
          return ur.statusCode();
        }))
        .onComplete(ar -> {
          if (ar.succeeded()) {
            finish(ar.result(), null);
          } else {
            fail(new RouterException(ErrorCode.SERVICE_UNAVAILABLE, "upstream failed: " + ar.cause().getMessage()));
          }
        });
  }

  private void onClientGone() {
    if (done || clientGone) {
      return;
    }
    clientGone = true;
    upstreamTimer.cancel();
    clientTimer.cancel();
    if (pending != null && decision == null) {
      pending.cancel();
    }
    if (upstream != null) {
      upstream.reset();
      closeAttempt(false);
      finish(499, "client disconnected");
    } else if (pending == null) {
      finish(499, "client disconnected"); // left while its body was still being read
    }
  }

  private void fail(Throwable t) {
    if (done) {
      return;
    }
    RouterException e = t instanceof RouterException re ? re
        : new RouterException(ErrorCode.INTERNAL, "internal error");
    if (!clientGone && !resp.headWritten()) {
      String json = OpenAiErrors.body(e.code(), e.getMessage());
      if (e.retryAfterSeconds() > 0) {
        resp.putHeader(HttpHeaders.RETRY_AFTER, String.valueOf(e.retryAfterSeconds()));
      }
      resp.setStatusCode(e.code().httpStatus())
          .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
          .end(json);
    }
    finish(e.code().httpStatus(), e.getMessage());
  }

  private void finish(int status, String error) {
    if (done) {
      return;
    }
    done = true;
    if (reservation != null) {
      reservation.release();
    }
    upstreamTimer.cancel();
    clientTimer.cancel();
    metrics.gatewayActive.add(-1);
    long now = nanoClock.getAsLong();
    long duration = now - startNanos;
    if (decision != null) {
      director.complete(decision, ResponseOutcome.of(upstreamStatus, completed, responseBytes, progress), now);
    }
    String model = decision == null ? "" : decision.request().incomingModel();
    metrics.gatewayRequests.inc(String.valueOf(status), director.modelLabel(decision));
    metrics.gatewayDuration.observe(duration / 1e9, String.valueOf(status));
    if (accessLog != null) {
      accessLog.log(new AccessLog.Entry(req.method().name(), req.path(), status, duration / 1000,
          ttfbNanos < 0 ? -1 : ttfbNanos / 1000, body.received(), responseBytes,
          current == null ? null : current.hostPort(), decision == null ? null : model,
          decision == null ? null : decision.request().targetModel(),
          decision == null ? req.getHeader(RequestDirector.REQUEST_ID) : decision.request().requestId(), attempts,
          pool == null ? null : pool.key().toString(), error));
    }
  }

  private void onContext(Runnable r) {
    if (context != null && io.vertx.core.Vertx.currentContext() != context) {
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
