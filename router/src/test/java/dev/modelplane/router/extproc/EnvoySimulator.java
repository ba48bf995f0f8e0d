package dev.modelplane.router.extproc;

import com.google.protobuf.ByteString;
import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.core.v3.HeaderMap;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpBody;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpHeaders;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpTrailers;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.Channel;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Plays Envoy's side of one ext_proc stream: sends the messages Envoy sends, in its order, and collects what the
 * picker answers.
 */
final class EnvoySimulator implements AutoCloseable {
  private final LinkedBlockingQueue<Object> received = new LinkedBlockingQueue<>();
  private final StreamObserver<ProcessingRequest> stream;
  private static final Object COMPLETED = new Object();

  EnvoySimulator(Channel channel) {
    stream = ExternalProcessorGrpc.newStub(channel).process(new StreamObserver<>() {
      @Override
      public void onNext(ProcessingResponse value) {
        received.add(value);
      }

      @Override
      public void onError(Throwable t) {
        received.add(t);
      }

      @Override
      public void onCompleted() {
        received.add(COMPLETED);
      }
    });
  }

  static HeaderMap headerMap(Map<String, String> headers) {
    HeaderMap.Builder b = HeaderMap.newBuilder();
    headers.forEach((k, v) -> b.addHeaders(HeaderValue.newBuilder().setKey(k)
        .setRawValue(ByteString.copyFromUtf8(v))));
    return b.build();
  }

  EnvoySimulator requestHeaders(Map<String, String> headers, boolean endOfStream) {
    return send(ProcessingRequest.newBuilder().setRequestHeaders(HttpHeaders.newBuilder()
        .setHeaders(headerMap(headers)).setEndOfStream(endOfStream)).build());
  }

  EnvoySimulator requestHeaders(Map<String, String> headers, List<String> subsetHint) {
    Struct hint = Struct.newBuilder().putFields(EppProtocol.SUBSET_FILTER_KEY, Value.newBuilder()
        .setListValue(ListValue.newBuilder().addAllValues(subsetHint.stream()
            .map(s -> Value.newBuilder().setStringValue(s).build()).toList())).build()).build();
    return send(ProcessingRequest.newBuilder()
        .setRequestHeaders(HttpHeaders.newBuilder().setHeaders(headerMap(headers)))
        .setMetadataContext(Metadata.newBuilder().putFilterMetadata(EppProtocol.SUBSET_FILTER_NAMESPACE, hint))
        .build());
  }

  EnvoySimulator requestBody(byte[] chunk, boolean endOfStream) {
    return send(ProcessingRequest.newBuilder().setRequestBody(HttpBody.newBuilder()
        .setBody(ByteString.copyFrom(chunk)).setEndOfStream(endOfStream)).build());
  }

  EnvoySimulator requestBody(String chunk, boolean endOfStream) {
    return requestBody(chunk.getBytes(StandardCharsets.UTF_8), endOfStream);
  }

  EnvoySimulator requestTrailers() {
    return send(ProcessingRequest.newBuilder().setRequestTrailers(HttpTrailers.getDefaultInstance()).build());
  }

  EnvoySimulator responseHeaders(Map<String, String> headers, String servedEndpoint, boolean endOfStream) {
    ProcessingRequest.Builder b = ProcessingRequest.newBuilder().setResponseHeaders(HttpHeaders.newBuilder()
        .setHeaders(headerMap(headers)).setEndOfStream(endOfStream));
    if (servedEndpoint != null) {
      b.setMetadataContext(Metadata.newBuilder().putFilterMetadata(EppProtocol.DESTINATION_ENDPOINT_NAMESPACE,
          Struct.newBuilder().putFields(EppProtocol.DESTINATION_ENDPOINT_SERVED_KEY,
              Value.newBuilder().setStringValue(servedEndpoint).build()).build()));
    }
    return send(b.build());
  }

  EnvoySimulator responseBody(String chunk, boolean endOfStream) {
    return send(ProcessingRequest.newBuilder().setResponseBody(HttpBody.newBuilder()
        .setBody(ByteString.copyFromUtf8(chunk)).setEndOfStream(endOfStream)).build());
  }

  EnvoySimulator send(ProcessingRequest r) {
    stream.onNext(r);
    return this;
  }

  /** The next response; fails the test if none arrives within 10 s or the stream ended instead. */
  ProcessingResponse next() throws InterruptedException {
    Object o = received.poll(10, TimeUnit.SECONDS);
    if (o instanceof ProcessingResponse r) {
      return r;
    }
    throw new AssertionError("expected a ProcessingResponse, got " + (o == COMPLETED ? "end of stream" : o));
  }

  /** Whatever arrives next: a response, a Throwable, or the completion marker. */
  Object nextEvent() throws InterruptedException {
    return received.poll(10, TimeUnit.SECONDS);
  }

  boolean completedNext() throws InterruptedException {
    return received.poll(10, TimeUnit.SECONDS) == COMPLETED;
  }

  /** Responses already received, without waiting. */
  int pending() {
    return received.size();
  }

  void halfClose() {
    stream.onCompleted();
  }

  @Override
  public void close() {
    try {
      stream.onCompleted();
    } catch (IllegalStateException ignored) {
      // already closed
    }
  }
}
