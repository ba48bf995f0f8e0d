package dev.modelplane.router.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.router.testing.FakeModelServer;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Model servers that misbehave in time: one that accepts a request and never answers, one that stalls in the middle
 * of a stream. Every wait is bounded; the timeouts are short so each test ends in seconds.
 */
class GatewayFaultTest extends GatewayHarness {
  private static final Duration SHORT = Duration.ofMillis(400);

  private GatewayOptions.Limits limits() {
    return GatewayOptions.Limits.defaults().withUpstream(SHORT, SHORT);
  }

  /** The value of one series of the router's /metrics, 0 when absent. */
  double metric(String series) {
    for (String line : router.metrics().scrape().split("\n")) {
      if (line.startsWith(series + " ")) {
        return Double.parseDouble(line.substring(series.length() + 1).trim());
      }
    }
    return 0;
  }

  @Test
  void anUpstreamThatNeverAnswersIsGivenUpOnAndTheRequestRetriedOnAHealthyOne() throws Exception {
    FakeModelServer hanging = server("hanging").hang();
    // The healthy one looks busy, so the scheduler tries the hanging one first.
    FakeModelServer healthy = server("healthy").metrics(8, 0.9);
    router(hanging.hostPort() + "," + healthy.hostPort(), limits());
    await().atMost(Duration.ofSeconds(10)).until(() -> router.pools().resolve(null).endpoints().stream()
        .allMatch(e -> e.metrics().updated()));
    for (int i = 0; i < 3; i++) {
      HttpResponse<String> r = post("/v1/chat/completions", chat("hi " + i, false));
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      assertThat(r.body()).contains("hello from healthy");
    }
    assertThat(hanging.requests()).isPositive();
    assertThat(metric("modelplane_gateway_upstream_timeouts_total{phase=\"response\"}")).isPositive();
    assertThat(metric("modelplane_gateway_upstream_retries_total{reason=\"response_timeout\"}")).isPositive();
    // Given up on means closed: the hanging server's connections do not pile up.
    await().atMost(Duration.ofSeconds(5)).until(() -> hanging.openConnections() == 0);
  }

  @Test
  void whenEveryUpstreamHangsTheClientGetsA504WithinTheTimeouts() throws Exception {
    FakeModelServer a = server("a").hang();
    FakeModelServer b = server("b").hang();
    router(a.hostPort() + "," + b.hostPort(), limits());
    long start = System.nanoTime();
    HttpResponse<String> r = post("/v1/chat/completions", chat("hi", false));
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertThat(r.statusCode()).isEqualTo(504);
    assertThat(r.headers().firstValue("content-type")).contains("application/json");
    assertThat(r.body()).contains("\"error\"").contains("\"type\":\"server_error\"").contains("timed out")
        .contains("no response within");
    // Two endpoints, one attempt each: bounded by the attempts times the timeout (plus scheduling slack).
    assertThat(took).isLessThan(Duration.ofSeconds(10));
    assertThat(a.requests() + b.requests()).isEqualTo(2);
    await().atMost(Duration.ofSeconds(5)).until(() -> a.openConnections() + b.openConnections() == 0);
  }

  @Test
  void aStreamThatStallsEndsWithAnErrorEventAndItsUpstreamConnectionIsClosed() throws Exception {
    FakeModelServer a = server("a").stream(5, 0);
    a.holdAfterFirstChunk(); // never released: the stream stalls after its first token
    router(a.hostPort(), limits());
    HttpRequest req = HttpRequest.newBuilder(uri("/v1/chat/completions")).timeout(Duration.ofSeconds(20))
        .POST(HttpRequest.BodyPublishers.ofString(chat("hi", true))).build();
    HttpResponse<InputStream> r = http.send(req, HttpResponse.BodyHandlers.ofInputStream());
    assertThat(r.statusCode()).isEqualTo(200);
    List<String> lines = new ArrayList<>();
    Throwable end = SseLines.read(r.body(), lines).get(15, TimeUnit.SECONDS);
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).contains("tok0");
    assertThat(lines.get(1)).startsWith("data: {\"error\":").contains("sent no data for");
    // The body was cut off, not ended: a client cannot take it for complete.
    assertThat(end).as("the stream ends with an error, not a clean end").isNotNull();
    assertThat(metric("modelplane_gateway_upstream_timeouts_total{phase=\"idle\"}")).isEqualTo(1);
    assertThat(metric("modelplane_gateway_aborted_responses_total{reason=\"upstream_idle_timeout\"}")).isEqualTo(1);
    await().atMost(Duration.ofSeconds(5)).until(() -> a.openConnections() == 0);
    assertThat(a.cancelled()).isEqualTo(1);
  }

  @Test
  void anAnthropicStreamThatStallsEndsWithAnthropicsErrorEvent() throws Exception {
    FakeModelServer a = server("a").stream(5, 0);
    a.holdAfterFirstChunk();
    router(a.hostPort(), limits());
    HttpRequest req = HttpRequest.newBuilder(uri("/v1/messages")).timeout(Duration.ofSeconds(20))
        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"max_tokens\":8,\"stream\":true,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")).build();
    HttpResponse<InputStream> r = http.send(req, HttpResponse.BodyHandlers.ofInputStream());
    assertThat(r.statusCode()).isEqualTo(200);
    List<String> lines = new ArrayList<>();
    assertThat(SseLines.read(r.body(), lines).get(15, TimeUnit.SECONDS)).as("cut off, not ended").isNotNull();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).contains("tok0");
    assertThat(lines.get(1)).isEqualTo("event: error");
    assertThat(lines.get(2)).startsWith("data: {\"type\":\"error\",\"error\":{\"type\":").contains("sent no data for");
  }

  @Test
  void aLongGenerationIsNotCutByTheIdleTimeoutsWhileItsFirstByteIsWithinTheResponseTimeout() throws Exception {
    FakeModelServer a = server("a").responseDelay(1200);
    // Client idle and upstream idle are far shorter than the generation: neither applies before the first byte.
    router(a.hostPort(), GatewayOptions.Limits.defaults().withUpstream(Duration.ofSeconds(5), SHORT)
        .withClient(SHORT, SHORT));
    HttpResponse<String> r = post("/v1/chat/completions", chat("hi", false));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(r.body()).contains("hello from a");
    assertThat(metric("modelplane_gateway_upstream_timeouts_total{phase=\"response\"}")).isZero();
  }
}
