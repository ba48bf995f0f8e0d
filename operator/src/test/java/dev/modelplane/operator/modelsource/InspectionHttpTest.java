package dev.modelplane.operator.modelsource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLSocketFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Model inspection's HTTP client against a loopback server: non-public addresses refused unless allowed, the
 * connection made to the address that was checked, redirects followed only where allowed and at most a few.
 */
class InspectionHttpTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  /** Test host names, all resolving to the loopback server without DNS. */
  private static final InspectionHttp.Resolver NAMES = host -> switch (host) {
    case "files.test", "cdn.test" -> new InetAddress[] {InetAddress.getByName("127.0.0.1")};
    default -> throw new UnknownHostException(host);
  };

  private final List<String> requests = new CopyOnWriteArrayList<>();
  private final List<String> authorizations = new CopyOnWriteArrayList<>();
  private HttpServer server;
  private int port;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
    port = server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      requests.add(exchange.getRequestHeaders().getFirst("Host") + path);
      authorizations.add(exchange.getRequestHeaders().getFirst("Host") + " "
          + exchange.getRequestHeaders().getFirst("Authorization"));
      String location = switch (path) {
        case "/same" -> "/file";
        case "/other" -> "http://cdn.test:" + port + "/file";
        case "/metadata" -> "http://169.254.169.254/latest/meta-data/";
        case "/loop" -> "/loop";
        default -> null;
      };
      if (location != null) {
        exchange.getResponseHeaders().add("Location", location);
        exchange.sendResponseHeaders(302, -1);
        return;
      }
      byte[] body = ("file at " + path).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("ETag", "\"e1\"");
      if (path.equals("/chunked")) {
        exchange.sendResponseHeaders(200, 0);
      } else {
        exchange.sendResponseHeaders(200, body.length);
      }
      exchange.getResponseBody().write(body);
    }
  }

  private static InspectionPolicy loopback() {
    return InspectionPolicy.defaults().withAllowHttp(true).withAllowedCidrs(List.of("127.0.0.0/8"));
  }

  private InspectionHttp client(InspectionPolicy policy) {
    return new InspectionHttp(policy, TIMEOUT, NAMES, (SSLSocketFactory) SSLSocketFactory.getDefault());
  }

  private String get(InspectionPolicy policy, String url) throws IOException {
    try (InspectionHttp.Response r = client(policy).get(URI.create(url), Map.of())) {
      assertThat(r.status()).isEqualTo(200);
      return new String(r.body().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void aLoopbackAddressIsRefusedNamingTheFlagThatAllowsIt() {
    InspectionPolicy httpOnly = InspectionPolicy.defaults().withAllowHttp(true);
    assertThatThrownBy(() -> get(httpOnly, "http://files.test:" + port + "/file"))
        .isInstanceOf(InspectionRefusedException.class)
        .hasMessage("refused to inspect a file on files.test: it resolves to 127.0.0.1, a loopback address "
            + "(allowed by --model-inspection-allowed-cidrs)");
    assertThat(requests).as("refused before connecting").isEmpty();
  }

  @Test
  void anAllowedRangeIsReadAndTheConnectionGoesToTheCheckedAddress() throws IOException {
    assertThat(get(loopback(), "http://files.test:" + port + "/file")).isEqualTo("file at /file");
    assertThat(requests).containsExactly("files.test:" + port + "/file");
  }

  @Test
  void plainHttpIsRefusedUnlessAllowed() {
    assertThatThrownBy(() -> get(loopback().withAllowHttp(false), "http://files.test:" + port + "/file"))
        .hasMessageContaining("plain http is not allowed").hasMessageContaining("--model-inspection-allow-http");
    assertThatThrownBy(() -> get(loopback(), "file:///etc/passwd"))
        .isInstanceOf(InspectionRefusedException.class);
    assertThat(requests).isEmpty();
  }

  @Test
  void aRedirectOnTheSameHostIsFollowed() throws IOException {
    assertThat(get(loopback(), "http://files.test:" + port + "/same")).isEqualTo("file at /file");
    assertThat(requests).containsExactly("files.test:" + port + "/same", "files.test:" + port + "/file");
  }

  @Test
  void aRedirectToAnotherHostIsRefusedUnlessThatHostIsAllowed() throws IOException {
    assertThatThrownBy(() -> get(loopback(), "http://files.test:" + port + "/other"))
        .isInstanceOf(InspectionRefusedException.class)
        .hasMessage("refused to inspect a file on cdn.test: redirected there from files.test, another host "
            + "(allowed by --model-inspection-redirect-hosts)");
    assertThat(requests).containsExactly("files.test:" + port + "/other");

    assertThat(get(loopback().withRedirectHosts(List.of("*.test")), "http://files.test:" + port + "/other"))
        .isEqualTo("file at /file");
    assertThat(get(loopback().withAllowedHosts(List.of("files.test", "cdn.test")),
        "http://files.test:" + port + "/other")).isEqualTo("file at /file");
    assertThat(requests).endsWith("cdn.test:" + port + "/file");
  }

  @Test
  void credentialsStayWithTheFirstHostOfARedirect() throws IOException {
    InspectionPolicy cdn = loopback().withRedirectHosts(List.of("cdn.test"));
    try (InspectionHttp.Response r = client(cdn).get(URI.create("http://files.test:" + port + "/other"),
        Map.of("authorization", "Bearer t0ken", "Range", "bytes=0-3"))) {
      assertThat(r.status()).isEqualTo(200);
    }
    assertThat(authorizations).containsExactly("files.test:" + port + " Bearer t0ken", "cdn.test:" + port + " null");
  }

  @Test
  void aRedirectToTheMetadataEndpointIsRefusedBeforeConnecting() {
    InspectionPolicy anyRedirect = loopback().withRedirectHosts(List.of("169.254.169.254"));
    assertThatThrownBy(() -> get(anyRedirect, "http://files.test:" + port + "/metadata"))
        .isInstanceOf(InspectionRefusedException.class)
        .hasMessageContaining("169.254.169.254: it resolves to 169.254.169.254, a link-local address");
  }

  @Test
  void aRedirectLoopEndsAfterTheLimit() {
    assertThatThrownBy(() -> get(loopback(), "http://files.test:" + port + "/loop"))
        .isInstanceOf(InspectionRefusedException.class)
        .hasMessage("refused to inspect a file on files.test: more than " + InspectionHttp.MAX_REDIRECTS
            + " redirects");
    assertThat(requests).hasSize(InspectionHttp.MAX_REDIRECTS + 1);
  }

  @Test
  void aHostOffTheAllowListIsRefused() {
    assertThatThrownBy(() -> get(loopback().withAllowedHosts(List.of("models.example")),
        "http://files.test:" + port + "/file"))
        .hasMessageContaining("files.test: the host is not on the allowed hosts [models.example]");
    assertThat(requests).isEmpty();
  }

  @Test
  void chunkedAnswersAreDecodedAndUnknownHostsReported() throws IOException {
    assertThat(get(loopback(), "http://files.test:" + port + "/chunked")).isEqualTo("file at /chunked");
    assertThatThrownBy(() -> get(loopback(), "http://nowhere.test:" + port + "/file"))
        .isNotInstanceOf(InspectionRefusedException.class).hasMessage("cannot resolve host nowhere.test");
  }

  @Test
  void theInspectorReportsARefusalAsItsError() {
    ModelInspector inspector = new ModelInspector(new InspectionHttp(InspectionPolicy.defaults().withAllowHttp(true),
        TIMEOUT));
    ModelInspector.Inspection seen = inspector.remote("http://127.0.0.1:" + port
        + "/m.gguf?X-Amz-Signature=secret", true);
    assertThat(seen.error()).isEqualTo("refused to inspect a file on 127.0.0.1: it resolves to 127.0.0.1, a "
        + "loopback address (allowed by --model-inspection-allowed-cidrs)");
    assertThat(requests).isEmpty();
    ModelInspector allowed = new ModelInspector(TIMEOUT, loopback());
    assertThat(allowed.remote("http://127.0.0.1:" + port + "/missing?X-Amz-Signature=secret", false).error())
        .isNull();
    assertThat(allowed.remote("http://127.0.0.1:" + port + "/loop?X-Amz-Signature=secret", false).error())
        .doesNotContain("secret");
  }
}
