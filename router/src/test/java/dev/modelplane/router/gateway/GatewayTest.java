package dev.modelplane.router.gateway;

import dev.modelplane.api.gie.v1.AppProtocol;
import dev.modelplane.api.gie.v1alpha2.InferenceModelRewriteRule;
import dev.modelplane.api.gie.v1alpha2.InferenceModelRewriteSpec;
import dev.modelplane.api.gie.v1alpha2.ModelMatch;
import dev.modelplane.api.gie.v1alpha2.ModelMatchType;
import dev.modelplane.api.gie.v1alpha2.ModelRewriteMatch;
import dev.modelplane.api.gie.v1alpha2.PoolObjectReference;
import dev.modelplane.api.gie.v1alpha2.TargetModel;
import dev.modelplane.common.picker.PickerConfigs;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.ModelRewrites;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.testing.FakeModelServer;
import io.vertx.core.http.HttpVersion;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class GatewayTest extends GatewayHarness {
  @Test
  void forwardsAndReportsTheServedEndpoint() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), null, 1 << 20);
    HttpResponse<String> r = post("/v1/chat/completions", chat("hi", false), "x-request-id", "req-42");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).contains("hello from a");
    assertThat(r.headers().firstValue("x-gateway-destination-endpoint-served")).contains(a.hostPort());
    assertThat(a.headers().get(0).get("x-request-id")).isEqualTo("req-42");
    assertThat(a.bodies().get(0).getString("model")).isEqualTo("m");
  }

  @Test
  void streamsServerSentEventsWithoutBuffering() throws Exception {
    FakeModelServer a = server("a").stream(3, 0);
    CompletableFuture<Void> release = a.holdAfterFirstChunk();
    router(a.hostPort(), null, 1 << 20);
    HttpRequest req = HttpRequest.newBuilder(uri("/v1/chat/completions")).timeout(Duration.ofSeconds(20))
        .POST(HttpRequest.BodyPublishers.ofString(chat("hi", true))).build();
    HttpResponse<InputStream> r = http.send(req, HttpResponse.BodyHandlers.ofInputStream());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("content-type")).hasValueSatisfying(v -> assertThat(v).contains("event-stream"));
    BufferedReader reader = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8));
    // The upstream holds the rest of the stream until we have seen the first event: only an unbuffered proxy passes.
    String first = reader.readLine();
    assertThat(first).startsWith("data: ").contains("tok0");
    release.complete(null);
    List<String> rest = new ArrayList<>();
    for (String line; (line = reader.readLine()) != null; ) {
      if (!line.isEmpty()) {
        rest.add(line);
      }
    }
    assertThat(rest).hasSize(3).last().isEqualTo("data: [DONE]");
  }

  @Test
  void malformedJsonGetsAnOpenAiStyle400() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), null, 1 << 20);
    HttpResponse<String> r = post("/v1/chat/completions", "{\"model\": \"m\", \"messages\": [");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("\"error\"").contains("\"type\":\"invalid_request_error\"")
        .contains("error unmarshaling request body");
    HttpResponse<String> noModel = post("/v1/chat/completions", "{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
    assertThat(noModel.statusCode()).isEqualTo(400);
    assertThat(noModel.body()).contains("model not found in request body");
    assertThat(a.requests()).isZero();
  }

  @Test
  void oversizedBodyGets413() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), null, 1024);
    HttpResponse<String> r = post("/v1/completions", "{\"model\":\"m\",\"prompt\":\"" + "x".repeat(5000) + "\"}");
    assertThat(r.statusCode()).isEqualTo(413);
    assertThat(r.body()).contains("exceeds the limit of 1024 bytes");
    assertThat(a.requests()).isZero();
  }

  @Test
  void emptyPoolGets503() throws Exception {
    router("", null, 1 << 20);
    router.pools().getOrCreate(PoolKey.STATIC);
    HttpResponse<String> r = post("/v1/completions", "{\"model\":\"m\",\"prompt\":\"hello\"}");
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.body()).contains("failed to find endpoint candidates", "pool " + PoolKey.STATIC
        + " has no ready endpoint");
  }

  @Test
  void retriesAnotherEndpointWhenConnectingFails() throws Exception {
    FakeModelServer live = server("live");
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort();
    }
    router("127.0.0.1:" + deadPort + "," + live.hostPort(), null, 1 << 20);
    for (int i = 0; i < 8; i++) {
      HttpResponse<String> r = post("/v1/completions", "{\"model\":\"m\",\"prompt\":\"hello " + i + "\"}");
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("x-gateway-destination-endpoint-served")).contains(live.hostPort());
    }
    assertThat(live.requests()).isEqualTo(8);
  }

  @Test
  void aKeepAliveConnectionTheOnlyUpstreamClosesOnReuseIsRetriedOnAFreshOne() throws Exception {
    // The upstream answers the first request on each connection and closes it when the second arrives (as a server
    // does after refusing a request, or at its idle timeout). Before, the gateway answered that second request 503.
    try (ServerSocket upstream = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
      Thread.ofVirtual().start(() -> acceptAll(upstream));
      router("127.0.0.1:" + upstream.getLocalPort(), null, 1 << 20);
      for (int i = 0; i < 4; i++) {
        HttpResponse<String> r = post("/v1/completions", "{\"model\":\"m\",\"prompt\":\"hello " + i + "\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).contains("from raw");
      }
    }
  }

  /** Serves each connection (the metrics scraper's too) until the socket closes: one answer, then a close. */
  private static void acceptAll(ServerSocket upstream) {
    while (!upstream.isClosed()) {
      try {
        java.net.Socket s = upstream.accept();
        Thread.ofVirtual().start(() -> answerOnceThenClose(s));
      } catch (java.io.IOException e) {
        return;
      }
    }
  }

  private static void answerOnceThenClose(java.net.Socket socket) {
    try (java.net.Socket s = socket) {
      s.setSoTimeout(20_000);
      InputStream in = s.getInputStream();
      if (!readRequest(in)) {
        return;
      }
      String body = "{\"object\":\"text_completion\",\"model\":\"m\",\"choices\":[{\"text\":\"from raw\"}]}";
      s.getOutputStream().write(("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: "
          + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
      s.getOutputStream().flush();
      readRequest(in); // the reused connection's next request: closed without an answer
    } catch (java.io.IOException e) {
      // the gateway went away
    }
  }

  /** Reads one request head and its Content-Length body; false at end of stream. */
  private static boolean readRequest(InputStream in) throws java.io.IOException {
    StringBuilder head = new StringBuilder();
    int c;
    while (!head.toString().endsWith("\r\n\r\n")) {
      if ((c = in.read()) < 0) {
        return false;
      }
      head.append((char) c);
    }
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)").matcher(head);
    if (m.find()) {
      in.readNBytes(Integer.parseInt(m.group(1)));
    }
    return true;
  }

  @Test
  void retriesAnotherEndpointWhenTheUpstreamDiesAfterItsHeadBeforeAnyBody() throws Exception {
    FakeModelServer dying = server("dying").dieAfterHead();
    FakeModelServer live = server("live");
    router(dying.hostPort() + "," + live.hostPort(), null, 1 << 20);
    for (int i = 0; i < 8; i++) {
      HttpResponse<String> r = post("/v1/chat/completions", chat("question " + i, true));
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("x-gateway-destination-endpoint-served")).contains(live.hostPort());
      assertThat(r.body()).contains("tok0 ").endsWith("data: [DONE]\n\n");
    }
    assertThat(dying.requests()).as("requests that reached the dying server first").isPositive();
    assertThat(live.requests()).isEqualTo(8);
  }

  @Test
  void clientDisconnectCancelsTheUpstream() throws Exception {
    FakeModelServer a = server("a").stream(1000, 20);
    router(a.hostPort(), null, 1 << 20);
    HttpRequest req = HttpRequest.newBuilder(uri("/v1/chat/completions")).timeout(Duration.ofSeconds(20))
        .POST(HttpRequest.BodyPublishers.ofString(chat("long", true))).build();
    HttpResponse<InputStream> r = http.send(req, HttpResponse.BodyHandlers.ofInputStream());
    BufferedReader reader = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8));
    assertThat(reader.readLine()).startsWith("data: ");
    r.body().close();
    await().atMost(Duration.ofSeconds(10)).until(() -> a.cancelled() == 1);
    assertThat(a.completed()).isZero();
  }

  @Test
  void byDefaultASheddableRequestWaitsWhileThePoolIsSaturatedInsteadOfBeingShed() throws Exception {
    FakeModelServer a = server("a").metrics(50, 0.1);
    router(a.hostPort(), null, 1 << 20);
    EndpointPool pool = router.pools().get(PoolKey.STATIC);
    pool.putObjective("batch", -1);
    await().atMost(Duration.ofSeconds(10)).until(() -> pool.endpoints().get(0).metrics().waitingQueueSize() == 50);
    CompletableFuture<HttpResponse<String>> queued = http.sendAsync(HttpRequest.newBuilder(uri("/v1/completions"))
        .header("content-type", "application/json").header("x-gateway-inference-objective", "batch")
        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"prompt\":\"x\"}")).build(),
        HttpResponse.BodyHandlers.ofString());
    // Held in the router's queue while the server reports 50 waiting requests.
    await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> !queued.isDone());
    a.metrics(0, 0.1);
    HttpResponse<String> released = queued.get(10, TimeUnit.SECONDS);
    assertThat(released.statusCode()).as(released.body()).isEqualTo(200);
  }

  @Test
  void withoutFlowControlSheddableRequestsGet429WhenSaturated() throws Exception {
    FakeModelServer a = server("a").metrics(50, 0.1);
    router(a.hostPort(), "featureGates: [flowControl=false]\n" + PickerConfigs.ROUTER_DEFAULT.yaml(), 1 << 20);
    EndpointPool pool = router.pools().get(PoolKey.STATIC);
    pool.putObjective("batch", -1);
    await().atMost(Duration.ofSeconds(10)).until(() -> pool.endpoints().get(0).metrics().waitingQueueSize() == 50);
    HttpResponse<String> shed = post("/v1/completions", "{\"model\":\"m\",\"prompt\":\"x\"}",
        "x-gateway-inference-objective", "batch");
    assertThat(shed.statusCode()).isEqualTo(429);
    assertThat(shed.body()).contains("sheddable request dropped");
    HttpResponse<String> normal = post("/v1/completions", "{\"model\":\"m\",\"prompt\":\"x\"}");
    assertThat(normal.statusCode()).isEqualTo(200);
  }

  @Test
  void sharedPrefixesStickAndDifferentPrefixesSpread() throws Exception {
    FakeModelServer a = server("a");
    FakeModelServer b = server("b");
    FakeModelServer c = server("c");
    router(a.hostPort() + "," + b.hostPort() + "," + c.hostPort(), null, 1 << 20);
    String system = "You are a meticulous assistant. ".repeat(40);
    Set<String> sameServed = new HashSet<>();
    for (int i = 0; i < 10; i++) {
      HttpResponse<String> r = post("/v1/completions", "{\"model\":\"m\",\"prompt\":\"" + system + " question " + i
          + "\"}");
      sameServed.add(r.headers().firstValue("x-gateway-destination-endpoint-served").orElseThrow());
    }
    assertThat(sameServed).hasSize(1);
    Set<String> spread = new HashSet<>();
    for (int i = 0; i < 30; i++) {
      String unique = ("topic " + i + " ").repeat(30);
      HttpResponse<String> r = post("/v1/completions", "{\"model\":\"m\",\"prompt\":\"" + unique + "\"}");
      spread.add(r.headers().firstValue("x-gateway-destination-endpoint-served").orElseThrow());
    }
    assertThat(spread).hasSize(3);
  }

  @Test
  void healthMetricsAndModels() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), null, 1 << 20);
    post("/v1/completions", "{\"model\":\"m\",\"prompt\":\"x\"}");
    HttpResponse<String> health = http.send(HttpRequest.newBuilder(uri("/health")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.body()).contains("\"endpoints\":1");
    HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(uri("/metrics")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(metrics.body()).contains("inference_objective_request_total{model_name=\"m\",priority=\"0\","
        + "target_model_name=\"m\"} 1.0").contains("inference_extension_scheduler_e2e_duration_seconds_count 1")
        .contains("modelplane_gateway_requests_total{code=\"200\"")
        .contains("inference_objective_running_requests{model_name=\"m\"} 0.0");
    HttpResponse<String> models = http.send(HttpRequest.newBuilder(uri("/v1/models")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(models.statusCode()).isEqualTo(200);
    assertThat(models.body()).contains("\"id\":\"m\"");
  }

  @Test
  void modelRewriteHeaderChangesTheForwardedModel() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), null, 1 << 20);
    HttpResponse<String> r = post("/v1/completions", "{\"model\":\"m\",\"prompt\":\"x\"}",
        "x-gateway-model-name-rewrite", "m-lora");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(a.bodies().get(0).getString("model")).isEqualTo("m-lora");
  }

  @Test
  void thePoolsModelRewritesSplitAModelsRequestsByWeightAndTheHeaderWins() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), null, 1 << 20);
    router.pools().get(PoolKey.STATIC).setRewrites(List.of(new ModelRewrites.Source("canary", null,
        new InferenceModelRewriteSpec(new PoolObjectReference(null, null, "static"), List.of(
            new InferenceModelRewriteRule(List.of(new ModelRewriteMatch(new ModelMatch(ModelMatchType.Exact, "chat"))),
                List.of(new TargetModel(70, "chat-stable"), new TargetModel(30, "chat-canary"))))))));
    int requests = 1000;
    for (int i = 0; i < requests; i++) {
      assertThat(post("/v1/completions", "{\"model\":\"chat\",\"prompt\":\"x\"}").statusCode()).isEqualTo(200);
    }
    long stable = a.bodies().stream().filter(b -> "chat-stable".equals(b.getString("model"))).count();
    long canary = a.bodies().stream().filter(b -> "chat-canary".equals(b.getString("model"))).count();
    assertThat(stable + canary).isEqualTo(requests);
    assertThat(stable).as("70 %% of %d within 5 points", requests).isBetween(650L, 750L);
    // Other models go on as asked; a rewrite header is an instruction for its one request and wins.
    post("/v1/completions", "{\"model\":\"other\",\"prompt\":\"x\"}");
    post("/v1/completions", "{\"model\":\"chat\",\"prompt\":\"x\"}", "x-gateway-model-name-rewrite", "pinned");
    assertThat(a.bodies().subList(requests, requests + 2)).extracting(b -> b.getString("model"))
        .containsExactly("other", "pinned");
  }

  @Test
  void aPoolOfH2cServersIsSpokenToInHttp2WithPriorKnowledge() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), null, 1 << 20);
    assertThat(post("/v1/completions", "{\"model\":\"m\",\"prompt\":\"x\"}").statusCode()).isEqualTo(200);
    EndpointPool pool = router.pools().get(PoolKey.STATIC);
    pool.appProtocol(AppProtocol.H2C);
    HttpResponse<String> r = post("/v1/chat/completions", chat("over h2c", true));
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).contains("data: [DONE]");
    assertThat(a.versions()).filteredOn(v -> v == HttpVersion.HTTP_2).hasSize(1);
    // The model list follows (it is asked every 5 s, and at once by an endpoint that joins).
    pool.setEndpoints(List.of());
    pool.setEndpoints(List.of(Endpoint.ofStatic("127.0.0.1", a.port())));
    await().atMost(Duration.ofSeconds(10)).until(() -> a.versions().stream().filter(v -> v == HttpVersion.HTTP_2)
        .count() == 2);
  }
}
