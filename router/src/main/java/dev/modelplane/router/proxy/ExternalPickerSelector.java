package dev.modelplane.router.proxy;

import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.modelplane.common.request.RequestIds;
import dev.modelplane.router.Log;
import dev.modelplane.router.extproc.EppProtocol;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.request.ErrorCode;
import dev.modelplane.router.request.RouterException;
import io.envoyproxy.envoy.config.core.v3.HeaderMap;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ProcessingMode;
import io.envoyproxy.envoy.service.ext_proc.v3.CommonResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpBody;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpHeaders;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProtocolConfiguration;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Client mode: the gateway asks an external endpoint picker over ext_proc, playing Envoy's part (request headers,
 * body in FULL_DUPLEX_STREAMED chunks, then response headers with the served endpoint). Any conformant EPP works.
 * When the picker cannot be reached or fails the stream, {@code FailOpen} picks a random endpoint of the pool and
 * {@code FailClose} answers 503 — the proxy-side failure modes of an InferencePool's {@code endpointPickerRef}.
 */
public final class ExternalPickerSelector implements UpstreamSelector {
  private final ManagedChannel channel;
  private final boolean failOpen;
  private final Duration timeout;
  private final ScheduledExecutorService timer;

  public ExternalPickerSelector(ManagedChannel channel, boolean failOpen, Duration timeout,
      ScheduledExecutorService timer) {
    this.channel = channel;
    this.failOpen = failOpen;
    this.timeout = timeout;
    this.timer = timer;
  }

  @Override
  public Pending select(EndpointPool pool, String path, Map<String, String> headers, byte[] body,
      long receivedNanos) {
    Exchange exchange = new Exchange(pool, headers, body);
    exchange.start(path);
    return new Pending(exchange.decision, exchange::abandon);
  }

  @Override
  public UpstreamTarget any(EndpointPool pool) {
    List<EndpointState> all = pool.endpoints();
    return all.isEmpty() ? null : UpstreamTarget.of(all.get(ThreadLocalRandom.current().nextInt(all.size())));
  }

  private static HeaderMap headerMap(Map<String, String> headers) {
    HeaderMap.Builder b = HeaderMap.newBuilder();
    headers.forEach((k, v) -> b.addHeaders(HeaderValue.newBuilder().setKey(k).setRawValue(ByteString.copyFromUtf8(v))));
    return b.build();
  }

  private static ErrorCode codeFor(int status) {
    return switch (status) {
      case 400 -> ErrorCode.BAD_REQUEST;
      case 401 -> ErrorCode.UNAUTHORIZED;
      case 403 -> ErrorCode.FORBIDDEN;
      case 404 -> ErrorCode.NOT_FOUND;
      case 413 -> ErrorCode.PAYLOAD_TOO_LARGE;
      case 429 -> ErrorCode.RESOURCE_EXHAUSTED;
      case 503 -> ErrorCode.SERVICE_UNAVAILABLE;
      default -> ErrorCode.INTERNAL;
    };
  }

  /** One request's ext_proc stream. */
  private final class Exchange implements StreamObserver<ProcessingResponse> {
    private final EndpointPool pool;
    private final Map<String, String> headers;
    private final byte[] body;
    private final CompletableFuture<UpstreamSelection> decision = new CompletableFuture<>();
    private final Map<String, String> setHeaders = new LinkedHashMap<>();
    private final Set<String> removeHeaders = new LinkedHashSet<>();
    private final ByteArrayOutputStream newBody = new ByteArrayOutputStream();
    private final String requestId;
    private StreamObserver<ProcessingRequest> stream;
    private String destination;
    private boolean headersAnswered;
    private boolean closed;

    Exchange(EndpointPool pool, Map<String, String> headers, byte[] body) {
      this.pool = pool;
      this.headers = headers;
      this.body = body;
      String id = headers.get("x-request-id");
      this.requestId = RequestIds.orNew(id);
    }

    void start(String path) {
      Map<String, String> h = new LinkedHashMap<>();
      h.put(":method", "POST");
      h.put(":path", headers.getOrDefault(":path", path));
      headers.forEach((k, v) -> {
        if (!k.startsWith(":") && !k.equals("content-length") && !k.equals("host")) {
          h.put(k, v);
        }
      });
      h.put(":authority", headers.getOrDefault("host", "gateway"));
      h.put("x-request-id", requestId);
      h.put("content-length", String.valueOf(body.length));
      try {
        stream = ExternalProcessorGrpc.newStub(channel).process(this);
        stream.onNext(ProcessingRequest.newBuilder()
            .setRequestHeaders(HttpHeaders.newBuilder().setHeaders(headerMap(h)))
            .setProtocolConfig(ProtocolConfiguration.newBuilder()
                .setRequestBodyMode(ProcessingMode.BodySendMode.FULL_DUPLEX_STREAMED)
                .setResponseBodyMode(ProcessingMode.BodySendMode.NONE))
            .build());
        int off = 0;
        do {
          int len = Math.min(body.length - off, 64 * 1024);
          stream.onNext(ProcessingRequest.newBuilder().setRequestBody(HttpBody.newBuilder()
              .setBody(ByteString.copyFrom(body, off, len)).setEndOfStream(off + len >= body.length)).build());
          off += len;
        } while (off < body.length);
      } catch (RuntimeException e) {
        pickerFailed(e);
        return;
      }
      timer.schedule(() -> pickerFailed(new RuntimeException("endpoint picker timed out after " + timeout)),
          timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void onNext(ProcessingResponse r) {
      if (decision.isDone()) {
        return; // response-path answers: nothing to apply in the gateway
      }
      switch (r.getResponseCase()) {
        case IMMEDIATE_RESPONSE -> {
          int status = r.getImmediateResponse().getStatus().getCodeValue();
          String message = r.getImmediateResponse().getBody().toStringUtf8();
          closeStream();
          decision.completeExceptionally(new RouterException(codeFor(status), message.isEmpty()
              ? "endpoint picker answered " + status : message));
        }
        case REQUEST_HEADERS -> {
          headersAnswered = true;
          apply(r.getRequestHeaders().getResponse());
          if (destination == null && r.hasDynamicMetadata()) {
            Value ns = r.getDynamicMetadata().getFieldsMap().get(EppProtocol.DESTINATION_ENDPOINT_NAMESPACE);
            if (ns != null && ns.hasStructValue()) {
              Value d = ns.getStructValue().getFieldsMap().get(EppProtocol.DESTINATION_ENDPOINT_KEY);
              destination = d == null ? null : d.getStringValue();
            }
          }
        }
        case REQUEST_BODY -> {
          CommonResponse c = r.getRequestBody().getResponse();
          apply(c);
          if (c.getBodyMutation().hasStreamedResponse()) {
            newBody.writeBytes(c.getBodyMutation().getStreamedResponse().getBody().toByteArray());
            if (c.getBodyMutation().getStreamedResponse().getEndOfStream()) {
              decided();
            }
          } else {
            if (c.getBodyMutation().getBody().size() > 0) {
              newBody.writeBytes(c.getBodyMutation().getBody().toByteArray());
            } else {
              newBody.writeBytes(body);
            }
            decided();
          }
        }
        default -> {
        }
      }
    }

    private void apply(CommonResponse c) {
      for (HeaderValueOption o : c.getHeaderMutation().getSetHeadersList()) {
        String key = o.getHeader().getKey().toLowerCase(Locale.ROOT);
        String value = o.getHeader().getRawValue().isEmpty() ? o.getHeader().getValue()
            : o.getHeader().getRawValue().toStringUtf8();
        if (key.equals(EppProtocol.DESTINATION_ENDPOINT_KEY)) {
          destination = value;
        } else if (!key.equals("content-length")) {
          setHeaders.put(key, value);
        }
      }
      c.getHeaderMutation().getRemoveHeadersList().forEach(h -> removeHeaders.add(h.toLowerCase(Locale.ROOT)));
    }

    private void decided() {
      if (!headersAnswered || destination == null || destination.isBlank()) {
        pickerFailed(new RuntimeException("endpoint picker answered without " + EppProtocol.DESTINATION_ENDPOINT_KEY));
        return;
      }
      List<UpstreamTarget> targets = new ArrayList<>();
      for (String hp : destination.split(",")) {
        if (!hp.isBlank()) {
          targets.add(UpstreamTarget.parse(hp, pool.byHostPort(hp.trim())));
        }
      }
      decision.complete(new Selection(this, targets, 0, newBody.toByteArray()));
    }

    private void pickerFailed(Throwable t) {
      synchronized (this) {
        if (decision.isDone()) {
          return;
        }
        closeStream();
        if (failOpen) {
          UpstreamTarget any = any(pool);
          if (any != null) {
            Log.warn("endpoint picker failed, failing open", "error", t.getMessage(), "endpoint", any.hostPort());
            decision.complete(new Selection(this, List.of(any), 0, body));
            return;
          }
        }
        decision.completeExceptionally(new RouterException(ErrorCode.SERVICE_UNAVAILABLE,
            "endpoint picker unavailable: " + t.getMessage()));
      }
    }

    @Override
    public void onError(Throwable t) {
      pickerFailed(t);
      synchronized (this) {
        closed = true;
      }
    }

    @Override
    public void onCompleted() {
      pickerFailed(new RuntimeException("endpoint picker closed the stream"));
      synchronized (this) {
        closed = true;
      }
    }

    synchronized void reportResponse(int status, UpstreamTarget served) {
      if (closed || stream == null) {
        return;
      }
      Struct servedMeta = Struct.newBuilder().putFields(EppProtocol.DESTINATION_ENDPOINT_SERVED_KEY,
          Value.newBuilder().setStringValue(served.hostPort()).build()).build();
      try {
        stream.onNext(ProcessingRequest.newBuilder()
            .setResponseHeaders(HttpHeaders.newBuilder().setHeaders(headerMap(Map.of(":status",
                String.valueOf(status)))).setEndOfStream(false))
            .setMetadataContext(Metadata.newBuilder().putFilterMetadata(EppProtocol.DESTINATION_ENDPOINT_NAMESPACE,
                servedMeta))
            .build());
      } catch (RuntimeException e) {
        closed = true;
      }
    }

    synchronized void closeStream() {
      if (!closed && stream != null) {
        closed = true;
        try {
          stream.onCompleted();
        } catch (RuntimeException ignored) {
          // the picker already closed it
        }
      }
    }

    void abandon() {
      synchronized (this) {
        if (!decision.isDone()) {
          decision.completeExceptionally(new RouterException(ErrorCode.SERVICE_UNAVAILABLE, "client disconnected"));
        }
      }
      closeStream();
    }
  }

  private static final class Selection implements UpstreamSelection {
    private final Exchange exchange;
    private final List<UpstreamTarget> targets;
    private final int index;
    private final byte[] body;

    Selection(Exchange exchange, List<UpstreamTarget> targets, int index, byte[] body) {
      this.exchange = exchange;
      this.targets = targets;
      this.index = index;
      this.body = body;
    }

    @Override
    public UpstreamTarget target() {
      return targets.get(index);
    }

    @Override
    public byte[] body() {
      return body;
    }

    @Override
    public Map<String, String> setHeaders() {
      return exchange.setHeaders;
    }

    @Override
    public Set<String> removeHeaders() {
      return exchange.removeHeaders;
    }

    @Override
    public String incomingModel() {
      return "";
    }

    @Override
    public String targetModel() {
      return "";
    }

    @Override
    public String requestId() {
      return exchange.requestId;
    }

    @Override
    public UpstreamSelection retry(Set<String> failed) {
      // The protocol's retry rule: walk the destination list the picker returned.
      for (int i = index + 1; i < targets.size(); i++) {
        if (!failed.contains(targets.get(i).hostPort())) {
          return new Selection(exchange, targets, i, body);
        }
      }
      return null;
    }

    @Override
    public void started(UpstreamTarget target) {
      if (target.state() != null) {
        target.state().requestStarted();
      }
    }

    @Override
    public Map<String, String> responseHeaders(int status, UpstreamTarget servedBy) {
      exchange.reportResponse(status, servedBy);
      return Map.of();
    }

    @Override
    public void finished(UpstreamTarget target, boolean completed, long responseBytes) {
      if (target.state() != null) {
        target.state().requestFinished();
      }
    }

    @Override
    public void close() {
      exchange.closeStream();
    }
  }
}
