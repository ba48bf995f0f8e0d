package dev.modelplane.operator.modelsource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * https through the pinned connection: the socket goes to the checked address while TLS still sends the host name
 * (SNI) and verifies the certificate against it, so a certificate for another name is refused.
 */
class InspectionTlsTest {
  private static final char[] PASSWORD = "changeit".toCharArray();
  private static final InspectionHttp.Resolver LOOPBACK = host -> new InetAddress[] {
      InetAddress.getByName("127.0.0.1")};

  @TempDir
  Path dir;

  private KeyStore keyStore(String san) throws Exception {
    Path file = dir.resolve(san.replace(':', '-') + ".p12");
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "server", "-keyalg", "EC",
        "-dname", "CN=test", "-ext", "SAN=" + san, "-validity", "2", "-storetype", "PKCS12",
        "-keystore", file.toString(), "-storepass", new String(PASSWORD)).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(output).isZero();
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, PASSWORD);
    }
    return store;
  }

  private String fetch(String san, String host) throws Exception {
    KeyStore store = keyStore(san);
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, PASSWORD);
    SSLContext serverTls = SSLContext.getInstance("TLS");
    serverTls.init(keys.getKeyManagers(), null, null);
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    SSLContext clientTls = SSLContext.getInstance("TLS");
    clientTls.init(null, trust.getTrustManagers(), null);

    HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(serverTls));
    server.createContext("/", exchange -> {
      try (exchange) {
        byte[] body = ("hello " + exchange.getRequestHeaders().getFirst("Host")).getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
      }
    });
    server.start();
    try {
      InspectionPolicy policy = InspectionPolicy.defaults().withAllowedCidrs(List.of("127.0.0.0/8"));
      InspectionHttp http = new InspectionHttp(policy, Duration.ofSeconds(5), LOOPBACK, clientTls.getSocketFactory());
      int port = server.getAddress().getPort();
      try (InspectionHttp.Response r = http.get(URI.create("https://" + host + ":" + port + "/m.gguf"), Map.of())) {
        return new String(r.body().readAllBytes(), StandardCharsets.UTF_8);
      }
    } finally {
      server.stop(0);
    }
  }

  @Test
  void theCertificateIsCheckedAgainstTheHostNameNotTheAddress() throws Exception {
    assertThat(fetch("dns:files.test", "files.test")).startsWith("hello files.test:");
    assertThatThrownBy(() -> fetch("dns:other.test", "files.test")).isInstanceOf(SSLHandshakeException.class);
  }

  @Test
  void unresolvableNamesNeverReachTheResolverAsLiterals() throws UnknownHostException, IOException {
    InspectionHttp http = new InspectionHttp(InspectionPolicy.defaults(), Duration.ofSeconds(5), host -> {
      throw new AssertionError("looked up " + host);
    }, null);
    assertThatThrownBy(() -> http.get(URI.create("https://[fd00::1]/m.gguf"), Map.of()))
        .isInstanceOf(InspectionRefusedException.class).hasMessageContaining("fd00:0:0:0:0:0:0:1, a private");
  }
}
