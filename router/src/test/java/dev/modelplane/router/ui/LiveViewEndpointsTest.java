package dev.modelplane.router.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.router.Router;
import dev.modelplane.router.RouterOptions;
import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.gateway.GatewayOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /ui} and {@code /ui/state} on a real router's metrics port: served read-only (GET; any other method 405),
 * self-contained (nothing loaded from elsewhere, its one script allowed by hash), never on the gateway port, and
 * beside {@code /metrics}, which the port still serves.
 */
class LiveViewEndpointsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private Router router;

  @BeforeEach
  void start() throws Exception {
    GatewayOptions gateway = GatewayOptions.defaults().withPort(0).withEventLoops(1).withAccessLog(false);
    router = new Router(new RouterOptions("127.0.0.1", gateway, -1, -1, 0, "127.0.0.1:1", List.of(), null, null,
        MetricsScraper.Settings.DEFAULT, Duration.ofSeconds(2), null, false, false)).start();
  }

  @AfterEach
  void stop() {
    router.close();
  }

  private HttpResponse<String> send(int port, String method, String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .method(method, HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void thePageIsOneSelfContainedFileWhoseScriptTheHeaderAllows() throws Exception {
    for (String path : List.of("/ui", "/ui/")) {
      HttpResponse<String> r = send(router.metricsPort(), "GET", path);
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
      assertThat(r.headers().firstValue("cache-control")).hasValue("no-store");
      assertThat(r.headers().firstValue("x-content-type-options")).hasValue("nosniff");
      String html = r.body();
      assertThat(html).contains("modelplane router · live");
      // Nothing the browser would fetch from elsewhere: the one absolute URL is the SVG namespace, a name only.
      assertThat(html.replace("\"http://www.w3.org/2000/svg\"", "")).doesNotContain("http://")
          .doesNotContain("https://").doesNotContain("//cdn").doesNotContain("@import").doesNotContain(" src=");
      String csp = r.headers().firstValue("content-security-policy").orElseThrow();
      assertThat(csp).startsWith("default-src 'none'").contains("connect-src 'self'")
          .contains("script-src '" + LiveViewEndpoints.scriptHash(html) + "'").doesNotContain("unsafe-eval");
      assertThat(csp).doesNotContainPattern("script-src[^;]*unsafe-inline");
    }
  }

  @Test
  void theStateIsJsonWithThePoolsTheRouterKnows() throws Exception {
    HttpResponse<String> r = send(router.metricsPort(), "GET", "/ui/state");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("content-type")).hasValue("application/json");
    JsonNode s = JSON.readTree(r.body());
    assertThat(s.get("pools")).hasSize(1);
    JsonNode pool = s.get("pools").get(0);
    assertThat(pool.get("namespace").asText() + "/" + pool.get("name").asText()).isEqualTo("static/static");
    assertThat(pool.get("picker").asText()).isEqualTo("in-process");
    assertThat(pool.get("endpoints").get(0).get("address").asText()).isEqualTo("127.0.0.1:1");
    assertThat(s.get("decisions")).isEmpty();
    assertThat(s.get("traffic").get("buckets")).hasSize(LiveView.BUCKETS);
  }

  @Test
  void onlyGetIsAnswered() throws Exception {
    for (String path : List.of("/ui", "/ui/", "/ui/state")) {
      for (String method : List.of("POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS")) {
        HttpResponse<String> r = send(router.metricsPort(), method, path);
        assertThat(r.statusCode()).as("%s %s", method, path).isEqualTo(405);
        assertThat(r.headers().firstValue("allow")).as("%s %s", method, path).hasValue("GET");
      }
    }
  }

  @Test
  void theMetricsPortStillServesMetricsAndTheGatewayHasNoLiveView() throws Exception {
    HttpResponse<String> metrics = send(router.metricsPort(), "GET", "/metrics");
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.body()).contains("modelplane_");
    for (String path : List.of("/ui", "/ui/state")) {
      HttpResponse<String> r = send(router.gatewayPort(), "GET", path);
      assertThat(r.body()).as(path).doesNotContain("modelplane router · live").doesNotContain("\"decisions\"");
      assertThat(r.headers().firstValue("content-type").orElse("")).as(path).doesNotStartWith("text/html");
    }
  }

  @Test
  void theScriptHashCoversExactlyTheOneInlineScript() {
    String html = LiveViewEndpoints.page();
    Matcher m = Pattern.compile("<script").matcher(html);
    int scripts = 0;
    while (m.find()) {
      scripts++;
    }
    assertThat(scripts).isEqualTo(1);
    assertThat(LiveViewEndpoints.scriptHash("<p><script>x</script></p>"))
        .isEqualTo("sha256-LXEWQrcmsEQBYnyp+6wy9chTD7GQPMTbAiWHF5IaSIE=")
        .isNotEqualTo(LiveViewEndpoints.scriptHash("<script>y</script>"));
  }
}
