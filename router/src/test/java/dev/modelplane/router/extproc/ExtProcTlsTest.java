package dev.modelplane.router.extproc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.router.Router;
import dev.modelplane.router.RouterOptions;
import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.gateway.GatewayOptions;
import dev.modelplane.router.testing.FakeModelServer;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.vertx.core.Vertx;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ext_proc over TLS as GIE's EPP serves it: a self-signed certificate by default, a certificate directory that is
 * reloaded when it changes, plaintext only when asked; and client mode's channel to a TLS picker.
 */
class ExtProcTlsTest {
  private final Vertx upstreams = Vertx.vertx();
  private final List<AutoCloseable> closeables = new ArrayList<>();
  private FakeModelServer a;

  @TempDir
  Path dir;

  @AfterEach
  void stop() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
    upstreams.close().toCompletionStage().toCompletableFuture().get();
  }

  private Router picker(GrpcTls.ServerTls tls) throws Exception {
    a = new FakeModelServer(upstreams, "a").start();
    closeables.add(a);
    Router r = new Router(new RouterOptions("127.0.0.1", null, 0, -1, -1, a.hostPort(), List.of(), null, null,
        MetricsScraper.Settings.DEFAULT, Duration.ofSeconds(2), null, false, false).withExtProcTls(tls)).start();
    closeables.add(r);
    return r;
  }

  private ManagedChannel channel(Router r, GrpcTls.ClientTls tls) throws Exception {
    ManagedChannel c = GrpcTls.channel("127.0.0.1:" + r.extProcPort(), tls);
    closeables.add(c::shutdownNow);
    return c;
  }

  /** One request through the picker: the destination it answers with, or the error the stream ended with. */
  private static Object pick(ManagedChannel channel) throws Exception {
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      envoy.requestHeaders(Map.of(":method", "POST", ":path", "/v1/completions", ":authority", "gw"), false);
      envoy.requestBody("{\"model\":\"m\",\"prompt\":\"hi\"}", true);
      Object event = envoy.nextEvent();
      if (event instanceof ProcessingResponse r) {
        return r.getRequestHeaders().getResponse().getHeaderMutation().getSetHeaders(0).getHeader().getRawValue()
            .toStringUtf8();
      }
      return event;
    }
  }

  private static void writePem(Path file, Object o) throws Exception {
    StringWriter w = new StringWriter();
    try (JcaPEMWriter pem = new JcaPEMWriter(w)) {
      pem.writeObject(o);
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, w.toString());
    Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  /** Writes a new key and self-signed certificate as tls.key/tls.crt; returns the certificate. */
  private X509Certificate newPair(Path certDir) throws Exception {
    KeyPair pair = GrpcTls.selfSignedKeyPair();
    X509Certificate cert = GrpcTls.selfSigned(pair);
    Path tmp = certDir.resolve("tls.key.tmp");
    Files.writeString(tmp, "-----BEGIN PRIVATE KEY-----\n" + java.util.Base64.getMimeEncoder(64,
        new byte[] {'\n'}).encodeToString(pair.getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n");
    Files.move(tmp, certDir.resolve("tls.key"), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    writePem(certDir.resolve("tls.crt"), cert);
    return cert;
  }

  /** The certificate the server presents to a new handshake. */
  private static X509Certificate served(int port) throws Exception {
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(null, new TrustManager[] {new X509TrustManager() {
      @Override
      public void checkClientTrusted(X509Certificate[] chain, String authType) {
      }

      @Override
      public void checkServerTrusted(X509Certificate[] chain, String authType) {
      }

      @Override
      public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
      }
    }}, null);
    try (SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket()) {
      s.setSoTimeout(5_000);
      s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      SSLParameters p = s.getSSLParameters();
      p.setApplicationProtocols(new String[] {"h2"});
      s.setSSLParameters(p);
      s.startHandshake();
      return (X509Certificate) s.getSession().getPeerCertificates()[0];
    }
  }

  @Test
  void byDefaultTheServerIsTlsWithASelfSignedCertificateAndRefusesPlaintext() throws Exception {
    Router r = picker(GrpcTls.ServerTls.SELF_SIGNED);
    assertThat(pick(channel(r, GrpcTls.ClientTls.SKIP_VERIFY))).isEqualTo(a.hostPort());
    assertThat(served(r.extProcPort()).getSubjectX500Principal().getName()).contains("CN=modelplane-router");
    assertThat(pick(channel(r, GrpcTls.ClientTls.PLAINTEXT))).isInstanceOf(StatusRuntimeException.class);
  }

  @Test
  void plaintextWhenSecureServingIsOff() throws Exception {
    Router r = picker(GrpcTls.ServerTls.PLAINTEXT);
    assertThat(pick(channel(r, GrpcTls.ClientTls.PLAINTEXT))).isEqualTo(a.hostPort());
    assertThat(pick(channel(r, GrpcTls.ClientTls.SKIP_VERIFY))).isInstanceOf(StatusRuntimeException.class);
  }

  @Test
  void aCertificateDirectoryIsServedVerifiedByItsCaAndReloadedWhenItChanges() throws Exception {
    Path certs = Files.createDirectories(dir.resolve("certs"));
    X509Certificate first = newPair(certs);
    Router r = picker(new GrpcTls.ServerTls(true, certs, true));
    assertThat(served(r.extProcPort())).isEqualTo(first);
    // Verified against the certificate itself as the CA (its names include 127.0.0.1).
    Path ca = dir.resolve("ca.crt");
    Files.copy(certs.resolve("tls.crt"), ca);
    assertThat(pick(channel(r, new GrpcTls.ClientTls(true, ca, false)))).isEqualTo(a.hostPort());
    // A client trusting some other CA refuses the server.
    Path other = Files.createDirectories(dir.resolve("other"));
    newPair(other);
    assertThat(pick(channel(r, new GrpcTls.ClientTls(true, other.resolve("tls.crt"), false))))
        .isInstanceOf(StatusRuntimeException.class);

    X509Certificate second = newPair(certs);
    await().atMost(Duration.ofSeconds(15)).until(() -> served(r.extProcPort()).equals(second));
    // A broken pair is not taken: the previous one stays.
    Files.writeString(certs.resolve("tls.key"), "not a key");
    Thread.sleep(2_500);
    assertThat(served(r.extProcPort())).isEqualTo(second);
  }

  @Test
  void clientModeReachesATlsPickerSkippingVerification() throws Exception {
    Router picker = picker(GrpcTls.ServerTls.SELF_SIGNED);
    GatewayOptions gw = GatewayOptions.defaults().withPort(0).withEventLoops(1).withAccessLog(false);
    Router gateway = new Router(new RouterOptions("127.0.0.1", gw, -1, -1, -1, a.hostPort(), List.of(), null, null,
        MetricsScraper.Settings.DEFAULT, Duration.ofSeconds(2), "127.0.0.1:" + picker.extProcPort(), false, false)
        .withEppTls(GrpcTls.ClientTls.SKIP_VERIFY)).start();
    closeables.add(gateway);
    HttpResponse<String> resp = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
            "http://127.0.0.1:" + gateway.gatewayPort() + "/v1/completions")).timeout(Duration.ofSeconds(20))
        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"prompt\":\"hi\"}")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(resp.statusCode()).as(resp.body()).isEqualTo(200);
    assertThat(resp.headers().firstValue("x-gateway-destination-endpoint-served")).contains(a.hostPort());
    // The picker's stream ends after the client has its response.
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(picker.metrics().scrape())
        .contains("modelplane_extproc_streams_total{outcome=\"completed\"} 1"));
  }
}
