package dev.modelplane.operator.modelsource.fetch;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * An https server on 127.0.0.1 with a certificate made for the test (keytool, SAN {@code IP:127.0.0.1}) and a sender
 * that trusts it; {@link #answer} decides every response by path.
 */
final class TlsServer implements AutoCloseable {
  private static final char[] PASSWORD = "changeit".toCharArray();

  /** One response. */
  record Answer(int status, Map<String, String> headers, String body) {
  }

  volatile Function<String, Answer> answer = path -> new Answer(404, Map.of(), "");
  private final Path dir;
  private final HttpsServer server;
  private final SSLContext clientTls;

  TlsServer() throws Exception {
    dir = Files.createTempDirectory("tls");
    Path file = dir.resolve("server.p12");
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "server", "-keyalg", "EC",
        "-dname", "CN=test", "-ext", "SAN=IP:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
        "-keystore", file.toString(), "-storepass", new String(PASSWORD)).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("keytool failed: " + output);
    }
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, PASSWORD);
    }
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, PASSWORD);
    SSLContext serverTls = SSLContext.getInstance("TLS");
    serverTls.init(keys.getKeyManagers(), null, null);
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    clientTls = SSLContext.getInstance("TLS");
    clientTls.init(null, trust.getTrustManagers(), null);
    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(serverTls));
    server.createContext("/", exchange -> {
      try (exchange) {
        Answer a = answer.apply(exchange.getRequestURI().getRawPath());
        a.headers().forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
        byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(a.status(), body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
          exchange.getResponseBody().write(body);
        }
      }
    });
    server.start();
  }

  URI endpoint() {
    return URI.create("https://127.0.0.1:" + server.getAddress().getPort());
  }

  /** A sender trusting this server's certificate, following no redirects itself. */
  HttpSender sender() {
    return new HttpSender(HttpClient.newBuilder().sslContext(clientTls).connectTimeout(Duration.ofSeconds(5))
        .followRedirects(HttpClient.Redirect.NEVER).build());
  }

  @Override
  public void close() throws Exception {
    server.stop(0);
    try (var files = Files.list(dir)) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    Files.delete(dir);
  }
}
