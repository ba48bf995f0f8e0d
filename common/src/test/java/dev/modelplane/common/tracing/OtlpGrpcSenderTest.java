package dev.modelplane.common.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Codec;
import io.grpc.Decompressor;
import io.grpc.DecompressorRegistry;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.opentelemetry.exporter.internal.FailedExportException;
import io.opentelemetry.exporter.otlp.trace.OtlpGrpcSpanExporter;
import io.opentelemetry.exporter.otlp.trace.OtlpGrpcSpanExporterBuilder;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.GrpcSenderProvider;
import io.opentelemetry.sdk.common.export.GrpcStatusCode;
import io.opentelemetry.sdk.common.export.RetryPolicy;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Our OTLP/gRPC sender under the OpenTelemetry span exporter, against a plain gRPC server on 127.0.0.1. */
class OtlpGrpcSenderTest {
  private static final String EXPORT = "opentelemetry.proto.collector.trace.v1.TraceService/Export";

  /** What the server saw of one call. */
  record Received(Metadata headers, byte[] body) {}

  private final List<Received> received = Collections.synchronizedList(new ArrayList<>());
  /** The statuses the server answers with, in order; OK once they run out. */
  private final Deque<Status> answers = new ArrayDeque<>();
  private final AtomicInteger gzipDecoded = new AtomicInteger();
  private Server server;

  @BeforeEach
  void startServer() throws IOException {
    MethodDescriptor<byte[], byte[]> method = MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName(EXPORT)
        .setRequestMarshaller(new Bytes()).setResponseMarshaller(new Bytes()).build();
    ServerServiceDefinition service = ServerServiceDefinition.builder(
        "opentelemetry.proto.collector.trace.v1.TraceService").addMethod(method, new Answering()).build();
    // Gzip that counts what it decodes: the proof the request really came compressed.
    Decompressor countingGzip = new Decompressor() {
      @Override
      public String getMessageEncoding() {
        return "gzip";
      }

      @Override
      public InputStream decompress(InputStream is) throws IOException {
        gzipDecoded.incrementAndGet();
        return new Codec.Gzip().decompress(is);
      }
    };
    server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(service)
        .decompressorRegistry(DecompressorRegistry.emptyInstance().with(countingGzip, true)).build().start();
  }

  @AfterEach
  void stopServer() throws InterruptedException {
    server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
  }

  private OtlpGrpcSpanExporterBuilder exporter() {
    return OtlpGrpcSpanExporter.builder().setEndpoint("http://127.0.0.1:" + server.getPort())
        .setTimeout(Duration.ofSeconds(10)).setRetryPolicy(null);
  }

  private static List<SpanData> oneSpan(String name) {
    InMemorySpanExporter memory = InMemorySpanExporter.create();
    try (Tracing t = Tracing.withExporter(TracingSettings.fromEnv(Map.of(), true, "grpc-test", null, "always_on",
        1), memory)) {
      t.tracer("test").spanBuilder(name).startSpan().end();
      return memory.getFinishedSpanItems(); // before close(), which empties the in-memory exporter
    }
  }

  private static CompletableResultCode export(OtlpGrpcSpanExporter exporter, String spanName) {
    return exporter.export(oneSpan(spanName)).join(20, TimeUnit.SECONDS);
  }

  @Test
  void ourProviderIsTheOneTheExportersFind() {
    assertThat(ServiceLoader.load(GrpcSenderProvider.class).stream().map(p -> p.type().getName()))
        .containsExactly(OtlpGrpcSenderProvider.class.getName());
  }

  @Test
  void exportsTheSpanToTheMethodWithTheHeadersAndGzip() {
    OtlpGrpcSpanExporter exporter = exporter().addHeader("authorization", "Bearer t0ken")
        .addHeader("x-tenant", "a").setCompression("gzip").build();
    try {
      assertThat(export(exporter, "span-over-grpc").isSuccess()).isTrue();
    } finally {
      exporter.shutdown().join(10, TimeUnit.SECONDS);
    }
    assertThat(received).hasSize(1);
    Metadata headers = received.get(0).headers();
    assertThat(headers.get(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER)))
        .isEqualTo("Bearer t0ken");
    assertThat(headers.get(Metadata.Key.of("x-tenant", Metadata.ASCII_STRING_MARSHALLER))).isEqualTo("a");
    assertThat(headers.get(Metadata.Key.of("grpc-encoding", Metadata.ASCII_STRING_MARSHALLER))).isEqualTo("gzip");
    assertThat(gzipDecoded).hasValue(1);
    assertThat(new String(received.get(0).body(), StandardCharsets.UTF_8)).contains("span-over-grpc")
        .contains("grpc-test");
  }

  @Test
  void withoutCompressionTheRequestIsSentPlain() {
    OtlpGrpcSpanExporter exporter = exporter().build();
    try {
      assertThat(export(exporter, "plain").isSuccess()).isTrue();
    } finally {
      exporter.shutdown().join(10, TimeUnit.SECONDS);
    }
    assertThat(gzipDecoded).hasValue(0);
    assertThat(received.get(0).headers().containsKey(Metadata.Key.of("grpc-encoding",
        Metadata.ASCII_STRING_MARSHALLER))).isFalse();
  }

  @Test
  void aFailingStatusIsAFailedExportWithThatStatus() {
    answers.add(Status.PERMISSION_DENIED.withDescription("no tenant"));
    OtlpGrpcSpanExporter exporter = exporter().build();
    CompletableResultCode result;
    try {
      result = export(exporter, "denied");
    } finally {
      exporter.shutdown().join(10, TimeUnit.SECONDS);
    }
    assertThat(result.isSuccess()).isFalse();
    assertThat(result.getFailureThrowable()).isInstanceOf(FailedExportException.GrpcExportException.class);
    FailedExportException.GrpcExportException failure =
        (FailedExportException.GrpcExportException) result.getFailureThrowable();
    assertThat(failure.getResponse().getStatusCode()).isEqualTo(GrpcStatusCode.PERMISSION_DENIED);
    assertThat(failure.getResponse().getStatusDescription()).isEqualTo("no tenant");
    assertThat(received).hasSize(1);
  }

  @Test
  void unavailableIsRetriedByThePolicy() {
    answers.add(Status.UNAVAILABLE.withDescription("busy"));
    OtlpGrpcSpanExporter exporter = exporter().setRetryPolicy(RetryPolicy.builder().setMaxAttempts(3)
        .setInitialBackoff(Duration.ofMillis(10)).setMaxBackoff(Duration.ofMillis(20)).build()).build();
    try {
      assertThat(export(exporter, "retried").isSuccess()).isTrue();
    } finally {
      exporter.shutdown().join(10, TimeUnit.SECONDS);
    }
    assertThat(received).hasSize(2);
  }

  @Test
  void noCollectorIsAFailedExport() throws InterruptedException {
    int port = server.getPort();
    stopServer();
    OtlpGrpcSpanExporter exporter = OtlpGrpcSpanExporter.builder().setEndpoint("http://127.0.0.1:" + port)
        .setRetryPolicy(null).setTimeout(Duration.ofSeconds(10)).build();
    try {
      CompletableResultCode result = export(exporter, "nowhere");
      assertThat(result.isDone()).isTrue();
      assertThat(result.isSuccess()).isFalse();
    } finally {
      exporter.shutdown().join(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void shutdownClosesTheChannel() {
    OtlpGrpcSpanExporter exporter = exporter().build();
    assertThat(export(exporter, "before").isSuccess()).isTrue();
    assertThat(exporter.shutdown().join(10, TimeUnit.SECONDS).isSuccess()).isTrue();
    assertThat(export(exporter, "after").isSuccess()).isFalse();
    assertThat(received).hasSize(1);
  }

  @Test
  void retryPolicyBecomesTheChannelsServiceConfig() {
    RetryPolicy policy = RetryPolicy.builder().setMaxAttempts(4).setInitialBackoff(Duration.ofMillis(1500))
        .setMaxBackoff(Duration.ofSeconds(5)).setBackoffMultiplier(2).build();
    assertThat(OtlpGrpcSenderProvider.retryServiceConfig(EXPORT, policy)).isEqualTo(Map.of("methodConfig",
        List.of(Map.of("name", List.of(Map.of("service", "opentelemetry.proto.collector.trace.v1.TraceService",
            "method", "Export")), "retryPolicy", Map.of("maxAttempts", 4.0, "initialBackoff", "1.5s",
            "maxBackoff", "5s", "backoffMultiplier", 2.0, "retryableStatusCodes",
            OtlpGrpcSenderProvider.RETRYABLE_STATUSES)))));
  }

  @Test
  void binaryHeadersCarryTheValuesBytes() {
    Metadata m = OtlpGrpcSender.metadata(Map.of("trace-bin", List.of("ab"), "k", List.of("v1", "v2")));
    assertThat(m.get(Metadata.Key.of("trace-bin", Metadata.BINARY_BYTE_MARSHALLER))).containsExactly('a', 'b');
    assertThat(m.getAll(Metadata.Key.of("k", Metadata.ASCII_STRING_MARSHALLER))).containsExactly("v1", "v2");
  }

  /** Records the call and answers with the next queued status, or OK with an empty response. */
  private final class Answering implements ServerCallHandler<byte[], byte[]> {
    @Override
    public ServerCall.Listener<byte[]> startCall(ServerCall<byte[], byte[]> call, Metadata headers) {
      call.request(1);
      return new ServerCall.Listener<>() {
        @Override
        public void onMessage(byte[] message) {
          received.add(new Received(headers, message));
        }

        @Override
        public void onHalfClose() {
          Status status;
          synchronized (answers) {
            status = answers.isEmpty() ? Status.OK : answers.poll();
          }
          if (status.isOk()) {
            call.sendHeaders(new Metadata());
            call.sendMessage(new byte[0]);
          }
          call.close(status, new Metadata());
        }
      };
    }
  }

  private static final class Bytes implements MethodDescriptor.Marshaller<byte[]> {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }
}
