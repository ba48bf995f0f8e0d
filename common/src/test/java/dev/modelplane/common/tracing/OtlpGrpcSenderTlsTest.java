package dev.modelplane.common.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.stub.ServerCalls;
import io.opentelemetry.exporter.otlp.trace.OtlpGrpcSpanExporter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** https:// endpoints: TLS with the exporter's trust material, refused without it. */
class OtlpGrpcSenderTlsTest {
  private static final char[] PASSWORD = "changeit".toCharArray();

  @TempDir
  Path dir;
  private final AtomicInteger calls = new AtomicInteger();
  private Server server;
  private SSLContext clientTls;
  private X509TrustManager clientTrust;

  @BeforeEach
  void startTlsServer() throws Exception {
    KeyStore store = selfSigned(dir.resolve("server.p12"));
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, PASSWORD);
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    clientTrust = (X509TrustManager) trust.getTrustManagers()[0];
    clientTls = SSLContext.getInstance("TLS");
    clientTls.init(null, new javax.net.ssl.TrustManager[] {clientTrust}, null);

    MethodDescriptor<byte[], byte[]> method = MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(MethodDescriptor.MethodType.UNARY)
        .setFullMethodName("opentelemetry.proto.collector.trace.v1.TraceService/Export")
        .setRequestMarshaller(new Bytes()).setResponseMarshaller(new Bytes()).build();
    ServerServiceDefinition service = ServerServiceDefinition.builder(
        "opentelemetry.proto.collector.trace.v1.TraceService").addMethod(method,
            ServerCalls.asyncUnaryCall((request, response) -> {
              calls.incrementAndGet();
              response.onNext(new byte[0]);
              response.onCompleted();
            })).build();
    server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .sslContext(GrpcSslContexts.configure(SslContextBuilder.forServer(keys)).build())
        .addService(service).build().start();
  }

  @AfterEach
  void stop() throws InterruptedException {
    server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
  }

  private static KeyStore selfSigned(Path file) throws Exception {
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "collector", "-keyalg", "EC",
        "-dname", "CN=collector", "-ext", "SAN=IP:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
        "-keystore", file.toString(), "-storepass", new String(PASSWORD)).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("keytool failed: " + output);
    }
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, PASSWORD);
    }
    return store;
  }

  private static List<SpanData> oneSpan() {
    InMemorySpanExporter memory = InMemorySpanExporter.create();
    try (Tracing t = Tracing.withExporter(TracingSettings.fromEnv(Map.of(), true, "tls-test", null, "always_on",
        1), memory)) {
      t.tracer("test").spanBuilder("over-tls").startSpan().end();
      return memory.getFinishedSpanItems();
    }
  }

  private CompletableResultCode export(OtlpGrpcSpanExporter exporter) {
    try {
      return exporter.export(oneSpan()).join(20, TimeUnit.SECONDS);
    } finally {
      exporter.shutdown().join(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void httpsWithTheExportersTrustMaterialExports() {
    OtlpGrpcSpanExporter exporter = OtlpGrpcSpanExporter.builder()
        .setEndpoint("https://127.0.0.1:" + server.getPort()).setSslContext(clientTls, clientTrust)
        .setRetryPolicy(null).setTimeout(Duration.ofSeconds(10)).build();
    assertThat(export(exporter).isSuccess()).isTrue();
    assertThat(calls).hasValue(1);
  }

  @Test
  void httpsToACertificateTheJvmDoesNotTrustFails() {
    OtlpGrpcSpanExporter exporter = OtlpGrpcSpanExporter.builder()
        .setEndpoint("https://127.0.0.1:" + server.getPort()).setRetryPolicy(null)
        .setTimeout(Duration.ofSeconds(10)).build();
    assertThat(export(exporter).isSuccess()).isFalse();
    assertThat(calls).hasValue(0);
  }

  @Test
  void plaintextToATlsCollectorFails() {
    OtlpGrpcSpanExporter exporter = OtlpGrpcSpanExporter.builder()
        .setEndpoint("http://127.0.0.1:" + server.getPort()).setRetryPolicy(null)
        .setTimeout(Duration.ofSeconds(10)).build();
    assertThat(export(exporter).isSuccess()).isFalse();
    assertThat(calls).hasValue(0);
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
        throw new UncheckedIOException(e);
      }
    }
  }
}
