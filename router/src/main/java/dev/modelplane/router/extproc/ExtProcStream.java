package dev.modelplane.router.extproc;

import dev.modelplane.common.request.RequestIds;
import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.request.Destination;
import dev.modelplane.router.request.ErrorCode;
import dev.modelplane.router.request.InflightBytes;
import dev.modelplane.router.request.PathPolicy;
import dev.modelplane.router.request.RequestDirector;
import dev.modelplane.router.request.RequestInput;
import dev.modelplane.router.request.RequestParsers;
import dev.modelplane.router.request.RequestTrace;
import dev.modelplane.router.request.RouterException;
import dev.modelplane.router.request.RoutingDecision;
import dev.modelplane.router.scheduling.ResponseOutcome;
import dev.modelplane.router.scheduling.ResponseProgress;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ProcessingMode;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpBody;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpHeaders;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One ext_proc stream, i.e. one HTTP request through Envoy, following the Endpoint Picker Protocol as GIE's EPP does:
 * store the request headers; buffer the body until end of stream; decide; only then send the request-headers response
 * (destination header, {@code Content-Length}, {@code clear_route_cache}, {@code envoy.lb} metadata) followed by the
 * body as streamed mutations of at most 62,000 bytes. On the response path, read the served endpoint from the
 * metadata, mark response headers, and pass the body back with the model name rewritten ({@link ResponseBodyRewrite}:
 * streams chunk by chunk, other bodies held up to the body cap only when they need it). A request body over the cap
 * is answered 413, one that does not fit the in-flight bytes budget 429 with {@code retry-after} (its reservation is
 * released when the stream or the response ends), and nothing is routed before endpoint discovery has synced (503
 * with the reason); a method or path the {@link PathPolicy} does not forward is answered 404 from its headers. Errors
 * with a known HTTP status become an ImmediateResponse; anything else fails the gRPC stream so the proxy's failure
 * mode (FailOpen/FailClose) applies. It is one class, over 400 lines, because every message of the stream reads and
 * changes the same per-request state (phase, headers, body, budget reservation, decision) under the stream's lock;
 * split up, that state's invariants would span classes.
 */
final class ExtProcStream implements StreamObserver<ProcessingRequest> {
  private static final Logger LOG = LoggerFactory.getLogger(ExtProcStream.class);

  private enum Phase { HEADERS, BODY, DECIDING, FORWARDED, RESPONSE, DONE }

  private final StreamObserver<ProcessingResponse> out;
  private final RequestDirector director;
  private final PoolRegistry pools;
  private final RouterMetrics metrics;
  private final boolean disableSubsetFilter;
  private final long maxBodyBytes;
  private final long startNanos = System.nanoTime();

  private Phase phase = Phase.HEADERS;
  private final Map<String, String> headers = new HashMap<>();
  /** The request's path, normalized, with its query: what its parser is chosen by. */
  private String path;
  private boolean requestIdGenerated;
  private ByteArrayOutputStream body = new ByteArrayOutputStream();
  /** This request's share of the in-flight bytes budget; released when the stream or the response ends. */
  private final InflightBytes.Reservation reservation;
  private List<String> subsetHint;
  private boolean fullDuplex = true;
  private boolean trailersPending;
  private RequestDirector.PendingDecision pending;
  private RoutingDecision decision;
  private int responseStatus;
  private long responseBytes;
  private final ResponseProgress progress;
  private ResponseBodyRewrite responseBody;
  private boolean finished;
  /** The request's spans; started with a body's headers, {@link RequestTrace#OFF} unless tracing is on. */
  private RequestTrace trace = RequestTrace.OFF;

  ExtProcStream(StreamObserver<ProcessingResponse> out, RequestDirector director, PoolRegistry pools,
      RouterMetrics metrics, boolean disableSubsetFilter, long maxBodyBytes) {
    this.out = out;
    this.maxBodyBytes = maxBodyBytes;
    this.director = director;
    this.progress = director.responseProgress();
    this.reservation = director.inflight().reserve();
    this.pools = pools;
    this.metrics = metrics;
    this.disableSubsetFilter = disableSubsetFilter;
  }

  @Override
  public synchronized void onNext(ProcessingRequest req) {
    if (phase == Phase.DONE) {
      return;
    }
    if (req.hasProtocolConfig()) {
      ProcessingMode.BodySendMode mode = req.getProtocolConfig().getRequestBodyMode();
      fullDuplex = mode == ProcessingMode.BodySendMode.FULL_DUPLEX_STREAMED || mode == ProcessingMode.BodySendMode.NONE;
    }
    List<String> hint = ProcessingMetadata.subsetHint(req);
    if (hint != null) {
      subsetHint = hint;
    }
    try {
      switch (req.getRequestCase()) {
        case REQUEST_HEADERS -> onRequestHeaders(req.getRequestHeaders());
        case REQUEST_BODY -> onRequestBody(req.getRequestBody());
        case REQUEST_TRAILERS -> onRequestTrailers();
        case RESPONSE_HEADERS -> onResponseHeaders(req);
        case RESPONSE_BODY -> onResponseBody(req.getResponseBody());
        case RESPONSE_TRAILERS -> onResponseTrailers();
        default -> throw Status.INVALID_ARGUMENT.withDescription("empty processing request").asRuntimeException();
      }
    } catch (RouterException e) {
      reject(e);
    } catch (io.grpc.StatusRuntimeException e) {
      fail(e.getStatus());
    }
  }

  private void onRequestHeaders(HttpHeaders h) {
    String unavailable = pools.unavailableReason();
    if (unavailable != null) {
      throw new RouterException(ErrorCode.SERVICE_UNAVAILABLE, unavailable);
    }
    for (HeaderValue hv : h.getHeaders().getHeadersList()) {
      String value = hv.getRawValue().isEmpty() ? hv.getValue() : hv.getRawValue().toString(StandardCharsets.UTF_8);
      headers.put(hv.getKey().toLowerCase(Locale.ROOT), value);
    }
    String raw = headers.getOrDefault(":path", pathFallback());
    PathPolicy.checkMethod(headers.get(":method"), raw);
    int query = raw.indexOf('?');
    String normal = PathPolicy.normalize(query < 0 ? raw : raw.substring(0, query));
    director.limits().paths().check(headers.get(":method"), normal);
    path = query < 0 ? normal : normal + raw.substring(query);
    String id = headers.get(RequestDirector.REQUEST_ID);
    if (id == null || id.isEmpty()) {
      headers.put(RequestDirector.REQUEST_ID, RequestIds.newId());
      requestIdGenerated = true;
    }
    EndpointPool pool = pool();
    if (h.getEndOfStream()) {
      // No body: nothing to schedule on, so any endpoint will do (GIE picks at random).
      Destination any = director.any(pool, subsetHint);
      if (any == null) {
        throw new RouterException(ErrorCode.INTERNAL, "no pods available in datastore");
      }
      Map<String, String> set = new LinkedHashMap<>();
      set.put(EppProtocol.DESTINATION_ENDPOINT_KEY, any.hostPort());
      if (requestIdGenerated) {
        set.put(RequestDirector.REQUEST_ID, headers.get(RequestDirector.REQUEST_ID));
      }
      send(ExtProcMessages.requestHeadersResponse(ExtProcMessages.headerMutation(set, List.of()),
          any.hostPort()));
      phase = Phase.FORWARDED;
      return;
    }
    phase = Phase.BODY;
    trace = director.tracer().start("router.request", headers, headers.get(":method"), path);
    if (!fullDuplex) {
      send(ExtProcMessages.continueRequestHeaders());
    }
  }

  private void onRequestBody(HttpBody b) {
    if (phase != Phase.BODY) {
      throw Status.FAILED_PRECONDITION.withDescription("request body outside the body phase").asRuntimeException();
    }
    long size = (long) body.size() + b.getBody().size();
    if (size > maxBodyBytes) {
      body = new ByteArrayOutputStream(0);
      throw new RouterException(ErrorCode.PAYLOAD_TOO_LARGE, "request body exceeds the limit of " + maxBodyBytes
          + " bytes");
    }
    if (!reservation.ensure(size)) {
      body = new ByteArrayOutputStream(0);
      throw director.inflight().refusal();
    }
    body.writeBytes(b.getBody().toByteArray());
    if (b.getEndOfStream()) {
      decide();
    }
  }

  private void onRequestTrailers() {
    if (phase == Phase.BODY) {
      trailersPending = true; // trailers mark the end of the body in FULL_DUPLEX_STREAMED mode
      decide();
    } else {
      send(ExtProcMessages.requestTrailers());
    }
  }

  private void decide() {
    phase = Phase.DECIDING;
    EndpointPool pool = pool();
    byte[] bytes = body.toByteArray();
    body = new ByteArrayOutputStream(0); // only the copy stays
    RequestInput input = new RequestInput(pool, path, headers,
        bytes, disableSubsetFilter ? null : subsetHint, startNanos, trace);
    // Behind a proxy the proxy itself has called the pool's endpoint picker — this router — so the pool's
    // endpointPickerRef is not followed again here: the pick is made in-process (client mode's --epp still wins).
    pending = director.route(input, false);
    pending.decision().whenComplete((d, err) -> {
      synchronized (this) {
        if (phase == Phase.DONE) {
          return; // stream already gone; nothing was started
        }
        if (err != null) {
          Throwable cause = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
          if (cause instanceof RouterException re) {
            reject(re);
          } else {
            fail(Status.INTERNAL.withDescription(cause.toString()));
          }
          return;
        }
        forward(d);
      }
    });
  }

  private String pathFallback() {
    String p = headers.get("x-original-path");
    if (p == null) {
      p = headers.get("x-forwarded-path");
    }
    return p == null ? "/v1/completions" : p;
  }

  private void forward(RoutingDecision d) {
    decision = d;
    director.started(d);
    Map<String, String> set = new LinkedHashMap<>();
    set.put(EppProtocol.DESTINATION_ENDPOINT_KEY, d.destinationHeader());
    set.put("content-length", String.valueOf(d.body().length));
    if (requestIdGenerated) {
      set.put(RequestDirector.REQUEST_ID, d.request().requestId());
    }
    set.putAll(d.request().setHeaders());
    if (d.input().trace().active()) {
      d.input().trace().injectUpstream(set::put); // Envoy forwards the upstream attempt's span as the parent
    }
    var mutation = ExtProcMessages.headerMutation(set, d.request().removedHeaders());
    if (fullDuplex) {
      send(ExtProcMessages.requestHeadersResponse(mutation, d.destinationHeader()));
      for (ProcessingResponse chunk : ExtProcMessages.streamedBody(d.body(), !trailersPending, true)) {
        send(chunk);
      }
      if (trailersPending) {
        send(ExtProcMessages.requestTrailers());
      }
    } else {
      send(ExtProcMessages.bufferedRequestBody(d.body(), d.bodyRewritten(), mutation, d.destinationHeader()));
    }
    phase = Phase.FORWARDED;
  }

  private void onResponseHeaders(ProcessingRequest req) {
    phase = Phase.RESPONSE;
    String status = null;
    boolean streaming = false;
    for (HeaderValue hv : req.getResponseHeaders().getHeaders().getHeadersList()) {
      String value = hv.getRawValue().isEmpty() ? hv.getValue() : hv.getRawValue().toString(StandardCharsets.UTF_8);
      String key = hv.getKey().toLowerCase(Locale.ROOT);
      if (key.equals(":status") || key.equals("status")) {
        status = value;
      } else if (key.equals("content-type") && value.contains("text/event-stream")) {
        streaming = true;
      }
    }
    if (decision != null) {
      responseStatus = parseStatus(status);
      director.responseReceived(decision, responseStatus, servedDestination(ProcessingMetadata.servedEndpoint(req)));
    }
    if (decision != null && decision.body() != null && decision.request().body() != null
        && decision.request().body().stream()) {
      streaming = true;
    }
    responseBody().headers(streaming);
    Map<String, String> set = new LinkedHashMap<>();
    set.put(EppProtocol.RESPONSE_HEADERS_MARKER, "true");
    if (decision != null) {
      set.putAll(decision.request().responseHeaders());
    }
    send(ExtProcMessages.responseHeaders(set));
    if (req.getResponseHeaders().getEndOfStream()) {
      complete(true);
    }
  }

  /** The endpoint the proxy reports it served; the chosen one when the report is absent or not a host:port. */
  private Destination servedDestination(String served) {
    if (served == null) {
      return decision.destination();
    }
    try {
      return Destination.parse(served, decision.pool());
    } catch (IllegalArgumentException e) {
      LOG.atDebug().addKeyValue("served", served).addKeyValue("error", e.getMessage())
          .log("ignoring an unreadable served endpoint in the response metadata");
      return decision.destination();
    }
  }

  private void onResponseBody(HttpBody b) {
    byte[] chunk = b.getBody().toByteArray();
    responseBytes += chunk.length;
    if (progress != null) {
      progress.onBody(chunk, 0, chunk.length, System.nanoTime());
    }
    for (ProcessingResponse r : responseBody().body(chunk, b.getEndOfStream())) {
      send(r);
    }
    if (b.getEndOfStream()) {
      complete(true);
    }
  }

  private void onResponseTrailers() {
    for (ProcessingResponse r : responseBody().trailers()) {
      send(r);
    }
    send(ExtProcMessages.responseTrailers());
    complete(true);
  }

  /** The response body's way back; held until its end unless its headers said otherwise. */
  private ResponseBodyRewrite responseBody() {
    if (responseBody == null) {
      responseBody = new ResponseBodyRewrite(decision, maxBodyBytes, metrics);
    }
    return responseBody;
  }

  /** The response is over ({@code completed}: it reached its end) or the stream went away. */
  private void complete(boolean completed) {
    reservation.release();
    trace.end(responseStatus, completed ? null : "stream ended before the response");
    if (!finished && decision != null) {
      finished = true;
      director.finished(decision, completed);
      director.complete(decision, ResponseOutcome.of(responseStatus, completed, responseBytes, progress),
          System.nanoTime());
    }
  }

  /** The {@code :status} value; 200 when Envoy sent none (it always does for a real response). */
  private static int parseStatus(String status) {
    if (status == null) {
      return 200;
    }
    try {
      return Integer.parseInt(status.trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private void reject(RouterException e) {
    reservation.release();
    trace.end(e.code().httpStatus(), e.getMessage());
    send(ExtProcMessages.immediate(e.code().httpStatus(), "application/json", RequestParsers.defaults()
        .errorShape(path != null ? path : headers.get(":path")).body(e.code(), e.getMessage()), e.retryAfterSeconds()));
    metrics.extProcStreams.inc("immediate_" + e.code().httpStatus());
    phase = Phase.DONE;
    out.onCompleted();
  }

  private void fail(Status status) {
    reservation.release();
    trace.end(0, status.toString());
    phase = Phase.DONE;
    metrics.extProcStreams.inc("grpc_error");
    out.onError(status.asRuntimeException());
  }

  private void send(ProcessingResponse r) {
    out.onNext(r);
  }

  private EndpointPool pool() {
    EndpointPool pool = pools.resolve(headers.get(PoolRegistry.POOL_HEADER));
    if (pool == null) {
      throw new RouterException(ErrorCode.SERVICE_UNAVAILABLE, "no inference pool for this request");
    }
    return pool;
  }

  @Override
  public synchronized void onError(Throwable t) {
    try (MDC.MDCCloseable id = MDC.putCloseable(RequestIds.MDC_KEY,
        headers.getOrDefault(RequestDirector.REQUEST_ID, "-"))) {
      LOG.atDebug().addKeyValue("error", t.toString()).log("ext_proc stream error");
    }
    cleanup();
  }

  @Override
  public synchronized void onCompleted() {
    boolean open = phase != Phase.DONE;
    cleanup();
    if (open) {
      out.onCompleted();
    }
  }

  private void cleanup() {
    if (pending != null && decision == null) {
      pending.cancel();
    }
    complete(false);
    if (phase != Phase.DONE) {
      metrics.extProcStreams.inc(decision != null ? "completed" : "abandoned");
    }
    phase = Phase.DONE;
  }
}
