package dev.modelplane.common.tracing;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.KnownLength;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.GrpcResponse;
import io.opentelemetry.sdk.common.export.GrpcSender;
import io.opentelemetry.sdk.common.export.GrpcStatusCode;
import io.opentelemetry.sdk.common.export.MessageWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Sends OTLP export requests as one unary gRPC call each on a grpc-java channel: the request is the exporter's
 * already-serialized protobuf, the response is kept as bytes for the exporter to read. A call that ends with a status
 * (OK or not) is reported as a {@link GrpcResponse}; only a failure before any status (e.g. the request could not be
 * serialized) goes to the error callback. Made by {@link OtlpGrpcSenderProvider}.
 */
final class OtlpGrpcSender implements GrpcSender {
  private static final long TERMINATION_WAIT_SECONDS = 5;

  private final ManagedChannel channel;
  private final MethodDescriptor<MessageWriter, byte[]> method;
  private final String compression;
  private final Duration timeout;
  private final Supplier<Map<String, List<String>>> headers;

  /**
   * @param compression the message encoding to send with (registered on the channel), null for none
   * @param timeout the deadline of one export, retries included; zero or negative for none
   */
  OtlpGrpcSender(ManagedChannel channel, String fullMethodName, String compression, Duration timeout,
      Supplier<Map<String, List<String>>> headers) {
    this.channel = channel;
    this.method = MethodDescriptor.<MessageWriter, byte[]>newBuilder()
        .setType(MethodDescriptor.MethodType.UNARY)
        .setFullMethodName(fullMethodName)
        .setRequestMarshaller(new RequestMarshaller())
        .setResponseMarshaller(new ResponseMarshaller())
        .build();
    this.compression = compression;
    this.timeout = timeout;
    this.headers = headers;
  }

  @Override
  public void send(MessageWriter request, Consumer<GrpcResponse> onResponse, Consumer<Throwable> onError) {
    CallOptions options = CallOptions.DEFAULT;
    if (timeout != null && timeout.toNanos() > 0) {
      options = options.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }
    if (compression != null) {
      options = options.withCompression(compression);
    }
    Metadata metadata;
    try {
      metadata = metadata(headers == null ? null : headers.get());
    } catch (RuntimeException e) {
      onError.accept(e);
      return;
    }
    ClientCall<MessageWriter, byte[]> call = channel.newCall(method, options);
    call.start(new ResponseListener(onResponse, onError), metadata);
    try {
      call.sendMessage(request);
      call.halfClose();
    } catch (RuntimeException e) {
      // The listener still hears the cancellation, as a status, and reports it once.
      call.cancel("the export request could not be sent", e);
      return;
    }
    call.request(1);
  }

  /** The configured headers as gRPC metadata; names ending in {@code -bin} carry the value's UTF-8 bytes. */
  static Metadata metadata(Map<String, List<String>> headers) {
    Metadata metadata = new Metadata();
    if (headers == null) {
      return metadata;
    }
    headers.forEach((name, values) -> {
      for (String value : values) {
        if (name.endsWith(Metadata.BINARY_HEADER_SUFFIX)) {
          metadata.put(Metadata.Key.of(name, Metadata.BINARY_BYTE_MARSHALLER),
              value.getBytes(StandardCharsets.UTF_8));
        } else {
          metadata.put(Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER), value);
        }
      }
    });
    return metadata;
  }

  /** Stops the channel: calls under way get {@value #TERMINATION_WAIT_SECONDS} seconds to finish, then are cut. */
  @Override
  public CompletableResultCode shutdown() {
    CompletableResultCode done = new CompletableResultCode();
    channel.shutdown();
    Thread waiter = new Thread(() -> {
      try {
        if (!channel.awaitTermination(TERMINATION_WAIT_SECONDS, TimeUnit.SECONDS)) {
          channel.shutdownNow();
        }
      } catch (InterruptedException e) {
        channel.shutdownNow();
        Thread.currentThread().interrupt();
      } finally {
        done.succeed();
      }
    }, "otlp-grpc-shutdown");
    waiter.setDaemon(true);
    waiter.start();
    return done;
  }

  /** Reports the call's end exactly once: the status, with the response message when there was one. */
  private static final class ResponseListener extends ClientCall.Listener<byte[]> {
    private final Consumer<GrpcResponse> onResponse;
    private final Consumer<Throwable> onError;
    private byte[] message = new byte[0];

    ResponseListener(Consumer<GrpcResponse> onResponse, Consumer<Throwable> onError) {
      this.onResponse = onResponse;
      this.onError = onError;
    }

    @Override
    public void onMessage(byte[] response) {
      message = response;
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      if (!status.isOk() && status.getCode() == Status.Code.CANCELLED && status.getCause() != null
          && !(status.getCause() instanceof io.grpc.StatusRuntimeException)) {
        onError.accept(status.getCause());
        return;
      }
      onResponse.accept(new Response(GrpcStatusCode.fromValue(status.getCode().value()),
          status.getDescription(), message));
    }
  }

  /** A finished call's status and response message. */
  record Response(GrpcStatusCode statusCode, String statusDescription, byte[] responseMessage)
      implements GrpcResponse {
    @Override
    public GrpcStatusCode getStatusCode() {
      return statusCode;
    }

    @Override
    public String getStatusDescription() {
      return statusDescription;
    }

    @Override
    public byte[] getResponseMessage() {
      return responseMessage;
    }
  }

  /** Serializes the exporter's message into a stream gRPC knows the length of (no second copy on framing). */
  private static final class RequestMarshaller implements MethodDescriptor.Marshaller<MessageWriter> {
    @Override
    public InputStream stream(MessageWriter value) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(value.getContentLength(), 32));
      try {
        value.writeMessage(out);
      } catch (IOException e) {
        throw new UncheckedIOException("the export request could not be serialized", e);
      }
      return new KnownLengthStream(out.toByteArray());
    }

    @Override
    public MessageWriter parse(InputStream stream) {
      throw new UnsupportedOperationException("requests are only sent");
    }
  }

  private static final class KnownLengthStream extends ByteArrayInputStream implements KnownLength {
    KnownLengthStream(byte[] bytes) {
      super(bytes);
    }
  }

  /** Keeps the response as bytes: the exporter parses the partial-success message itself. */
  private static final class ResponseMarshaller implements MethodDescriptor.Marshaller<byte[]> {
    @Override
    public InputStream stream(byte[] value) {
      throw new UnsupportedOperationException("responses are only received");
    }

    @Override
    public byte[] parse(InputStream stream) {
      try (stream) {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException("the export response could not be read", e);
      }
    }
  }
}
