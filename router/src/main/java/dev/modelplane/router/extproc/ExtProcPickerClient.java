package dev.modelplane.router.extproc;

import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.modelplane.common.request.RequestIds;
import dev.modelplane.router.request.Destination;
import dev.modelplane.router.request.ErrorCode;
import dev.modelplane.router.request.ExternalPicker;
import dev.modelplane.router.request.RequestInput;
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
import java.util.concurrent.TimeUnit;

/**
 * Client mode: the router asks an external endpoint picker over ext_proc, playing Envoy's part (request headers with
 * the request's method, body in FULL_DUPLEX_STREAMED chunks, then response headers with the served endpoint). A
 * request without a body (a GET, a DELETE) ends its stream with its headers, whose answer is then the decision. Any
 * conformant EPP works. What happens when the picker cannot be reached (fail open or closed) is the director's
 * decision.
 */
public final class ExtProcPickerClient implements ExternalPicker {
  private final ManagedChannel channel;
  private final Duration timeout;
  private final ScheduledExecutorService timer;

  public ExtProcPickerClient(ManagedChannel channel, Duration timeout, ScheduledExecutorService timer) {
    this.channel = channel;
    this.timeout = timeout;
    this.timer = timer;
  }

  @Override
  public ExternalPicker.Exchange pick(RequestInput input, String requestId) {
    StreamExchange exchange = new StreamExchange(input.headers(), input.body(), requestId);
    exchange.start(input.path());
    return exchange;
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
  private final class StreamExchange implements StreamObserver<ProcessingResponse>, ExternalPicker.Exchange {
    private final Map<String, String> headers;
    private final byte[] body;
    private final CompletableFuture<Answer> decision = new CompletableFuture<>();
    private final Map<String, String> setHeaders = new LinkedHashMap<>();
    private final Set<String> removeHeaders = new LinkedHashSet<>();
    private final ByteArrayOutputStream newBody = new ByteArrayOutputStream();
    private final String requestId;
    private StreamObserver<ProcessingRequest> stream;
    private String destination;
    private boolean headersAnswered;
    private boolean closed;

    StreamExchange(Map<String, String> headers, byte[] body, String requestId) {
      this.headers = headers;
      this.body = body;
      this.requestId = requestId;
    }

    @Override
    public CompletableFuture<Answer> answer() {
      return decision;
    }

    void start(String path) {
      Map<String, String> h = new LinkedHashMap<>();
      h.put(":method", headers.getOrDefault(":method", "POST"));
      h.put(":path", headers.getOrDefault(":path", path));
      headers.forEach((k, v) -> {
        if (!k.startsWith(":") && !k.equals("content-length") && !k.equals("host")) {
          h.put(k, v);
        }
      });
      h.put(":authority", headers.getOrDefault("host", "gateway"));
      h.put(RequestIds.HEADER, requestId);
      if (body.length > 0 || headers.containsKey("content-length")) {
        h.put("content-length", String.valueOf(body.length));
      }
      try {
        stream = ExternalProcessorGrpc.newStub(channel).process(this);
        stream.onNext(ProcessingRequest.newBuilder()
            .setRequestHeaders(HttpHeaders.newBuilder().setHeaders(headerMap(h)).setEndOfStream(body.length == 0))
            .setProtocolConfig(ProtocolConfiguration.newBuilder()
                .setRequestBodyMode(ProcessingMode.BodySendMode.FULL_DUPLEX_STREAMED)
                .setResponseBodyMode(ProcessingMode.BodySendMode.NONE))
            .build());
        for (int off = 0; off < body.length; off += 64 * 1024) {
          int len = Math.min(body.length - off, 64 * 1024);
          stream.onNext(ProcessingRequest.newBuilder().setRequestBody(HttpBody.newBuilder()
              .setBody(ByteString.copyFrom(body, off, len)).setEndOfStream(off + len >= body.length)).build());
        }
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
          if (body.length == 0) {
            decided(); // no body: the headers' answer is the decision, as Envoy takes it
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
        } else if (!key.equals("content-length") && HeaderMutationRules.maySet(key)) {
          setHeaders.put(key, value);
        }
      }
      c.getHeaderMutation().getRemoveHeadersList().stream().map(h -> h.toLowerCase(Locale.ROOT))
          .filter(HeaderMutationRules::mayRemove).forEach(removeHeaders::add);
    }

    private void decided() {
      if (!headersAnswered || destination == null || destination.isBlank()) {
        pickerFailed(new RuntimeException("endpoint picker answered without " + EppProtocol.DESTINATION_ENDPOINT_KEY));
        return;
      }
      List<String> destinations = new ArrayList<>();
      for (String hp : destination.split(",")) {
        if (!hp.isBlank()) {
          destinations.add(hp.trim());
        }
      }
      decision.complete(new Answer(destinations, newBody.toByteArray(), Map.copyOf(setHeaders),
          Set.copyOf(removeHeaders)));
    }

    private void pickerFailed(Throwable t) {
      synchronized (this) {
        if (decision.isDone()) {
          return;
        }
        closeStream();
        decision.completeExceptionally(t);
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

    @Override
    public synchronized void responseReceived(int status, Destination served) {
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

    @Override
    public void close() {
      synchronized (this) {
        if (!decision.isDone()) {
          decision.completeExceptionally(new RouterException(ErrorCode.SERVICE_UNAVAILABLE, "client disconnected"));
        }
      }
      closeStream();
    }
  }
}
