package dev.modelplane.router.gateway;

import dev.modelplane.router.config.SchedulingSetup;
import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.request.RequestDirector;
import dev.modelplane.router.testing.FakeModelServer;
import dev.modelplane.router.testing.RecordingPlugin;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The gateway runs the director's whole request lifecycle, request side and response side. */
class GatewayLifecycleTest {
  private final Vertx vertx = Vertx.vertx();
  private final ScheduledExecutorService flow = Executors.newSingleThreadScheduledExecutor();
  private final PoolRegistry pools = new PoolRegistry();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private GatewayServer gateway;
  private FakeModelServer server;

  @AfterEach
  void stop() throws Exception {
    if (gateway != null) {
      gateway.stop().toCompletionStage().toCompletableFuture().get();
    }
    if (server != null) {
      server.close();
    }
    flow.shutdownNow();
    vertx.close().toCompletionStage().toCompletableFuture().get();
  }

  private RecordingPlugin plugin;
  private RouterMetrics metrics;

  private void start() throws Exception {
    server = new FakeModelServer(vertx, "a").start();
    pools.getOrCreate(PoolKey.STATIC).setEndpoints(List.of(Endpoint.ofStatic("127.0.0.1", server.port())));
    SchedulingSetup setup = RecordingPlugin.load();
    plugin = (RecordingPlugin) setup.plugins().get(RecordingPlugin.TYPE);
    metrics = new RouterMetrics(pools, System::nanoTime, 2_000_000_000L);
    RequestDirector director = new RequestDirector(setup, metrics, System::nanoTime, flow);
    gateway = new GatewayServer(vertx, GatewayOptions.defaults().withPort(0).withEventLoops(1).withAccessLog(false),
        director, pools, metrics, null, System::nanoTime);
    gateway.start().toCompletionStage().toCompletableFuture().get();
  }

  @Test
  void aClientLeavingWhileItsBodyIsReadEndsTheExchange() throws Exception {
    start();
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", gateway.port())) {
      socket.getOutputStream().write(("POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n"
          + "{\"model\":").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      await().atMost(Duration.ofSeconds(5)).until(() -> metrics.scrape()
          .contains("modelplane_gateway_active_requests 1.0"));
    }
    await().atMost(Duration.ofSeconds(5)).until(() -> metrics.scrape()
        .contains("modelplane_gateway_requests_total{code=\"499\",model_name=\"\"} 1.0"));
    assertThat(metrics.scrape()).contains("modelplane_gateway_active_requests 0.0");
    assertThat(plugin.events()).isEmpty();
  }

  @Test
  void requestAndResponsePluginsRunOnceEachInOrder() throws Exception {
    start();

    HttpResponse<String> r = http.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + gateway.port() + "/v1/completions"))
        .header("x-request-id", "req-1").timeout(Duration.ofSeconds(20))
        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"prompt\":\"hi\"}")).build(),
        HttpResponse.BodyHandlers.ofString());

    assertThat(r.statusCode()).isEqualTo(200);
    String served = server.hostPort();
    await().atMost(Duration.ofSeconds(5)).until(() -> plugin.events().size() == 4);
    assertThat(plugin.events()).containsExactly("prepareData req-1", "preRequest " + served,
        "responseReceived 200 " + served, "responseComplete " + served);
    assertThat(plugin.outcome().completed()).isTrue();
    assertThat(plugin.outcome().responseBytes()).isEqualTo(r.body().length());
    assertThat(metrics.scrape()).containsPattern("inference_objective_running_requests\\{model_name=\"m\"} 0");
    assertThat(metrics.scrape()).contains("modelplane_gateway_active_requests 0.0");
  }

  @Test
  void responseCompleteSeesWhenTheStreamsFirstAndLastBytesCameAndHowManyEventsItHad() throws Exception {
    start();
    server.stream(5, 20);
    long before = System.nanoTime();
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + gateway.port() + "/v1/completions"))
        .timeout(Duration.ofSeconds(20))
        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"prompt\":\"hi\",\"stream\":true}")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).contains("data: [DONE]");
    await().atMost(Duration.ofSeconds(5)).until(() -> plugin.outcome() != null);
    assertThat(plugin.outcome().events()).as("five chunks; [DONE] is not one").isEqualTo(5);
    assertThat(plugin.outcome().firstByteNanos()).isGreaterThan(before);
    assertThat(plugin.outcome().lastByteNanos() - plugin.outcome().firstByteNanos())
        .as("five chunks 20 ms apart").isGreaterThanOrEqualTo(60_000_000L);
  }
}
