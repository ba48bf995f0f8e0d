package dev.modelplane.router.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.router.request.RequestLimits;
import dev.modelplane.router.testing.FakeModelServer;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * One unauthenticated request cannot take the gateway down: bodies over the size limit get 413, bodies over the JSON
 * limits 400, requests past the in-flight bytes budget 429 with {@code Retry-After}; the gateway keeps serving.
 */
class GatewayRequestLimitsTest extends GatewayHarness {
  private static final String CHAT = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

  /** {@code {"model":"m","messages":[{},{},…]}} of at least {@code bytes} bytes. */
  private static byte[] hostile(long bytes) {
    StringBuilder sb = new StringBuilder((int) bytes + 64).append("{\"model\":\"m\",\"messages\":[{}");
    while (sb.length() < bytes) {
      sb.append(",{}");
    }
    return sb.append("]}").toString().getBytes(StandardCharsets.US_ASCII);
  }

  private HttpResponse<String> postBytes(String path, byte[] body) throws Exception {
    return http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(60))
        .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theDefaultLimitAnswersA32MiBHostileBodyWith413AndKeepsServing() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), RequestLimits.defaults());
    HttpResponse<String> r = postBytes("/v1/chat/completions", hostile(32L * 1024 * 1024));
    assertThat(r.statusCode()).isEqualTo(413);
    assertThat(r.body()).contains("\"type\":\"invalid_request_error\"")
        .contains("request body exceeds the limit of " + RequestLimits.DEFAULT_MAX_BODY_BYTES + " bytes");
    assertThat(a.requests()).isZero();
    assertThat(post("/v1/chat/completions", CHAT).statusCode()).isEqualTo(200);
  }

  @Test
  void aHostileBodyWithinTheSizeLimitIsRefused400ByTheElementLimitAndNothingIsHeldAfterwards() throws Exception {
    FakeModelServer a = server("a");
    // 32 MiB allowed in size, so that only the JSON limits stand between this body and a 900 MB tree
    router(a.hostPort(), RequestLimits.defaults().withMaxBodyBytes(40L * 1024 * 1024));
    HttpResponse<String> r = postBytes("/v1/chat/completions", hostile(32L * 1024 * 1024));
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("\"type\":\"invalid_request_error\"").contains("more than 4194304 JSON elements");
    assertThat(a.requests()).isZero();
    await().atMost(Duration.ofSeconds(10)).until(() -> router.director().inflight().used() == 0);
    assertThat(post("/v1/chat/completions", CHAT).statusCode()).isEqualTo(200);
    assertThat(a.requests()).isEqualTo(1);
  }

  @Test
  void aModelNameOver1024CharsIs400NamingTheFieldAndNeverReachesTheMetrics() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), RequestLimits.defaults());
    String name = "m".repeat(1025);
    HttpResponse<String> r = post("/v1/chat/completions",
        CHAT.replace("\"model\":\"m\"", "\"model\":\"" + name + "\""));
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("\"type\":\"invalid_request_error\"")
        .contains("'model' is longer than 1024 characters");
    assertThat(a.requests()).isZero();
    assertThat(router.metrics().scrape()).doesNotContain(name);
  }

  @Test
  void tooDeepJsonIs400() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), RequestLimits.defaults());
    HttpResponse<String> r = post("/v1/chat/completions", "{\"model\":\"m\",\"messages\":[" + "[".repeat(200)
        + "]".repeat(200) + "]}");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("nesting depth");
  }

  @Test
  void pastTheInFlightBudgetRequestsGet429WithRetryAfterAndTheBytesComeBackWhenRequestsEnd() throws Exception {
    FakeModelServer a = server("a").responseDelay(5_000);
    long max = 64 * 1024;
    router(a.hostPort(), RequestLimits.defaults().withMaxBodyBytes(max).withMaxInflightBytes(max + max / 2));
    String padded = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"" + "x".repeat(60_000)
        + "\"}]}";
    CompletableFuture<HttpResponse<String>> held = http.sendAsync(HttpRequest.newBuilder(uri("/v1/chat/completions"))
        .timeout(Duration.ofSeconds(60)).header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(padded)).build(), HttpResponse.BodyHandlers.ofString());
    await().atMost(Duration.ofSeconds(10)).until(() -> a.requests() == 1); // in progress upstream, bytes held
    assertThat(router.director().inflight().used()).isEqualTo(padded.length());
    HttpResponse<String> refused = post("/v1/chat/completions", padded);
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.headers().firstValue("retry-after")).hasValue("1");
    assertThat(refused.body()).contains("\"type\":\"rate_limit_exceeded\"").contains("too many request bytes");
    assertThat(a.requests()).isEqualTo(1);
    assertThat(held.get(30, java.util.concurrent.TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    await().atMost(Duration.ofSeconds(10)).until(() -> router.director().inflight().used() == 0);
    assertThat(post("/v1/chat/completions", padded).statusCode()).as("room again").isEqualTo(200);
    String metrics = router.metrics().scrape();
    assertThat(metrics).contains("modelplane_router_inflight_bytes_rejections_total 1.0")
        .contains("modelplane_router_inflight_request_bytes 0.0");
  }

  /** A connection that sent the head of a POST declaring {@code contentLength} body bytes, and nothing else yet. */
  private Socket declare(long contentLength) throws Exception {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", router.gatewayPort()), 5_000);
    s.getOutputStream().write(("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Content-Type: application/json\r\nContent-Length: " + contentLength + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII));
    s.getOutputStream().flush();
    return s;
  }

  @Test
  void aClientDeclaringALargeBodyHoldsOnlyTheBytesItSentSoOthersAreServed() throws Exception {
    FakeModelServer a = server("a");
    long max = 64 * 1024;
    router(a.hostPort(), RequestLimits.defaults().withMaxBodyBytes(max).withMaxInflightBytes(max + max / 2));
    try (Socket idle = declare(max)) {
      idle.getOutputStream().write('{');
      idle.getOutputStream().flush();
      await().atMost(Duration.ofSeconds(10)).until(() -> router.director().inflight().used() > 0);
      assertThat(router.director().inflight().used()).as("the byte sent, not the length declared").isEqualTo(1);
      String padded = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"" + "x".repeat(40_000)
          + "\"}]}";
      assertThat(post("/v1/chat/completions", padded).statusCode()).as("1 + 40 KB of 96 KiB").isEqualTo(200);
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> router.director().inflight().used() == 0);
  }

  @Test
  void aDeclaredLengthWithoutRoomIs429BeforeTheBodyIsRead() throws Exception {
    FakeModelServer a = server("a");
    long max = 64 * 1024;
    router(a.hostPort(), RequestLimits.defaults().withMaxBodyBytes(max).withMaxInflightBytes(max + max / 2));
    try (Socket held = declare(max)) {
      held.getOutputStream().write(new byte[(int) max / 2]); // 32 KiB held of 96
      await().atMost(Duration.ofSeconds(10)).until(() -> router.director().inflight().used() == max / 2);
      try (Socket second = declare(max)) { // 32 + 64 = 96 fits
        second.getOutputStream().write('{');
        await().atMost(Duration.ofSeconds(10)).until(() -> router.director().inflight().used() == max / 2 + 1);
        try (Socket third = declare(max)) { // 32 + 1 + 64 > 96: answered without sending a body byte
          third.setSoTimeout(10_000);
          String head = new String(third.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
          assertThat(head).isEqualTo("HTTP/1.1 429");
        }
      }
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> router.director().inflight().used() == 0);
  }

  @Test
  void aBodyOverTheLimitGivesItsBytesBackWhileTheClientTricklesTheRest() throws Exception {
    FakeModelServer a = server("a");
    long max = 64 * 1024;
    router(a.hostPort(), RequestLimits.defaults().withMaxBodyBytes(max).withMaxInflightBytes(max + max / 2));
    try (Socket trickler = declare(2 * max)) { // over the limit, under the hard limit: read, then drained
      trickler.getOutputStream().write(new byte[(int) max / 2]);
      trickler.getOutputStream().flush();
      await().atMost(Duration.ofSeconds(10)).until(() -> router.director().inflight().used() == max / 2);
      trickler.getOutputStream().write(new byte[(int) max / 2 + 1]);
      trickler.getOutputStream().flush();
      await().atMost(Duration.ofSeconds(10)).until(() -> router.director().inflight().used() == 0);
      assertThat(post("/v1/chat/completions", CHAT).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void aModelsListOverItsCapIsRefusedInsteadOfBuffered() throws Exception {
    String huge = "{\"data\":[" + "{\"id\":\"m\"},".repeat(200_000) + "{\"id\":\"m\"}]}"; // ~2.6 MB
    io.vertx.core.http.HttpServer models = upstreams.createHttpServer()
        .requestHandler(req -> req.response().setChunked(true).putHeader("content-type", "application/json")
            .end(huge));
    models.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10,
        java.util.concurrent.TimeUnit.SECONDS);
    router("127.0.0.1:" + models.actualPort(), RequestLimits.defaults());
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri("/v1/models")).timeout(Duration.ofSeconds(20))
        .GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.body()).contains("\"type\":\"service_unavailable\"")
        .contains("response body exceeds the limit of 1048576 bytes");
  }
}
