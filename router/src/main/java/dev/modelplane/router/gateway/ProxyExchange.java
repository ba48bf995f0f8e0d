package dev.modelplane.router.gateway;



import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.request.Destination;
import dev.modelplane.router.request.ErrorCode;
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
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.function.LongSupplier;

/**
 * One client request through the gateway — the accept and forward steps of the request lifecycle: read the body (413
 * over the limit), ask the director where it goes, forward, stream the response back chunk by chunk with back-pressure,
 * retry another destination if the upstream fails before the first response body byte (the response head is held
 * until then), reset the upstream request when the client goes away, and report every step back to the director.
 * Everything runs on the event loop of the client connection.
 */
final class ProxyExchange {
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

  ProxyExchange(HttpServerRequest req, HttpClient client, GatewayOptions options, RequestDirector director,
      PoolRegistry pools, RouterMetrics metrics, AccessLog accessLog, LongSupplier nanoClock) {
    this.req = req;
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
  }

  void run() {
    String path = req.path();
    metrics.gatewayActive.add(1);
    resp.closeHandler(v -> onClientGone());
    resp.exceptionHandler(t -> onClientGone());
    pool = pools.resolve(req.getHeader(PoolRegistry.POOL_HEADER));
    if (pool == null) {
      fail(new RouterException(ErrorCode.NOT_FOUND, "no such inference pool: "
          + req.getHeader(PoolRegistry.POOL_HEADER)));
      return;
    }
    if (req.method() == HttpMethod.GET && path.startsWith("/v1/models")) {
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
    req.handler(this::onChunk);
    req.exceptionHandler(t -> onClientGone());
    req.endHandler(v -> onBody());
  }

  private void onChunk(Buffer chunk) {
    if (body.append(chunk) == BoundedBody.State.OVER_HARD_LIMIT && !done) {
      resp.putHeader(HttpHeaders.CONNECTION, "close");
      fail(body.tooLarge());
    }
  }

  private void onBody() {
    if (done) {
      return;
    }
    if (body.overLimit()) {
      fail(body.tooLarge());
      return;
    }
    Map<String, String> headers = new HashMap<>();
    req.headers().forEach(e -> headers.merge(e.getKey().toLowerCase(Locale.ROOT), e.getValue(), (a, b) -> a + "," + b));
    headers.put(":path", req.uri());
    pending = director.route(new RequestInput(pool, req.path(), headers, body.bytes(), null, startNanos));
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
        .setURI(ForwardedHeaders.upstreamUri(req.uri(), decision))
        .setHeaders(headers);
    director.started(decision);
    attemptOpen = true;
    client.request(ro).onComplete(ar -> {
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
      up.send(Buffer.buffer(decision.body())).onComplete(rar -> {
        if (rar.failed()) {
          if (!responseStarted) {
            upstreamFailedBeforeResponse(target, rar.cause(), false);
          }
          return;
        }
        onResponse(target, rar.result());
      });
    });
  }

  private void upstreamFailedBeforeResponse(Destination target, Throwable cause, boolean connectFailure) {
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
        metrics.gatewayRetries.inc(connectFailure ? "connect" : "before_first_byte");
        decision = next;
        send();
        return;
      }
    }
    fail(new RouterException(ErrorCode.SERVICE_UNAVAILABLE, "upstream " + target.hostPort() + " failed: "
        + cause.getMessage()));
  }

  private void onResponse(Destination target, HttpClientResponse ur) {
    if (clientGone) {
      upstream.reset();
      closeAttempt(false);
      finish(499, "client disconnected");
      return;
    }
    // The head is held until the first body bytes (or the end): an upstream that dies after its headers but
    // before any token — e.g. while the request waits for prefill — can still be retried on another endpoint.
    ur.handler(chunk -> {
      if (!responseStarted) {
        writeHead(target, ur);
      }
      responseBytes += chunk.length();
      if (progress != null) {
        progress.onBody(chunk.getBytes(), 0, chunk.length(), nanoClock.getAsLong());
      }
      resp.write(chunk);
      if (resp.writeQueueFull()) {
        ur.pause();
        resp.drainHandler(v -> ur.resume());
      }
    });
    ur.exceptionHandler(t -> {
      if (done) {
        return;
      }
      if (!responseStarted) {
        upstream = null;
        upstreamFailedBeforeResponse(target, t, false);
        return;
      }
      // Mid-stream failure: the client already has bytes, so abort rather than pretend the body is complete.
      closeAttempt(false);
      resp.reset();
      finish(ur.statusCode(), "upstream failed mid-response: " + t.getMessage());
    });
    ur.endHandler(v -> {
      if (!done) {
        if (!responseStarted) {
          writeHead(target, ur);
        }
        resp.end();
        closeAttempt(true);
        finish(ur.statusCode(), null);
      }
    });
  }

  private void writeHead(Destination target, HttpClientResponse ur) {
    responseStarted = true;
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
            .setURI(req.uri()))
        .compose(HttpClientRequest::send)
        .compose(ur -> ur.body().map(b -> {
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
    metrics.gatewayActive.add(-1);
    long now = nanoClock.getAsLong();
    long duration = now - startNanos;
    if (decision != null) {
      director.complete(decision, ResponseOutcome.of(upstreamStatus, completed, responseBytes, progress), now);
    }
    String model = decision == null ? "" : decision.request().incomingModel();
    metrics.gatewayRequests.inc(String.valueOf(status), model);
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
