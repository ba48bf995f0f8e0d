package dev.modelplane.router.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.router.config.SchedulingSetup;
import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.request.RequestDirector;
import dev.modelplane.router.testing.RecordingPlugin;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The exchange's phases, watched on a gateway of bare exchanges: however a request ends, it ends in
 * {@link ExchangePhase#DONE} once, with its body's bytes back in the in-flight budget and its attempt's accounting
 * closed.
 */
class ProxyExchangeTest {
  private static final String BODY = "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\","
      + "\"content\":\"hi\"}]}";

  private final Vertx vertx = Vertx.vertx();
  private final ScheduledExecutorService flow = Executors.newSingleThreadScheduledExecutor();
  private final PoolRegistry pools = new PoolRegistry();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final List<ProxyExchange> exchanges = new CopyOnWriteArrayList<>();
  /** Completed when the upstream is to end the connection of the response it holds. */
  private final CompletableFuture<Void> upstreamDies = new CompletableFuture<>();
  private final List<String> upstreamRequests = new CopyOnWriteArrayList<>();
  private volatile boolean upstreamAnswers = true;
  private RouterMetrics metrics;
  private RequestDirector director;
  private RecordingPlugin plugin;
  private volatile Context loop;
  private HttpServer gateway;

  @BeforeEach
  void start() throws Exception {
    HttpServer upstream = vertx.createHttpServer().requestHandler(this::upstream);
    get(upstream.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture());
    pools.getOrCreate(PoolKey.STATIC).setEndpoints(List.of(Endpoint.ofStatic("127.0.0.1", upstream.actualPort())));
    SchedulingSetup setup = RecordingPlugin.load();
    plugin = (RecordingPlugin) setup.plugins().get(RecordingPlugin.TYPE);
    metrics = new RouterMetrics(pools, System::nanoTime, 2_000_000_000L);
    director = new RequestDirector(setup, metrics, System::nanoTime, flow);
    GatewayContext ctx = new GatewayContext(GatewayOptions.defaults().withPort(0).withAccessLog(false), pools,
        director, metrics, null, System::nanoTime, vertx, vertx.createHttpClient(), null, null,
        dev.modelplane.router.gatewayapi.GatewayModel::empty);
    gateway = vertx.createHttpServer().requestHandler(req -> {
      loop = Vertx.currentContext();
      ProxyExchange exchange = new ProxyExchange(req, ctx, null);
      exchanges.add(exchange);
      exchange.run();
    });
    get(gateway.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture());
  }

  @AfterEach
  void stop() throws Exception {
    upstreamDies.complete(null);
    flow.shutdownNow();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static <T> T get(CompletableFuture<T> f) throws Exception {
    return f.get(10, TimeUnit.SECONDS);
  }

  /** A stream's head and first event, then — unless told not to answer — nothing until it is told to die. */
  private void upstream(HttpServerRequest req) {
    req.body().onSuccess(b -> {
      upstreamRequests.add(b.toString());
      if (!upstreamAnswers) {
        return;
      }
      req.response().setChunked(true).putHeader("content-type", "text/event-stream")
          .write("data: {\"choices\":[{\"delta\":{\"content\":\"tok0\"}}]}\n\n");
      upstreamDies.whenComplete((v, t) -> vertx.runOnContext(x -> req.connection().close()));
    });
  }

  /** Posts {@link #BODY}; the response's head has arrived. */
  private HttpResponse<InputStream> stream() throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.actualPort()
            + "/v1/chat/completions")).timeout(Duration.ofSeconds(20))
        .POST(HttpRequest.BodyPublishers.ofString(BODY)).build(), HttpResponse.BodyHandlers.ofInputStream());
  }

  /** The exchange's phase, read on its event loop. */
  private ExchangePhase phase(ProxyExchange exchange) throws Exception {
    CompletableFuture<ExchangePhase> phase = new CompletableFuture<>();
    loop.runOnContext(v -> phase.complete(exchange.phase()));
    return get(phase);
  }

  private void awaitPhase(ExchangePhase expected) {
    await().atMost(Duration.ofSeconds(10)).until(() -> exchanges.size() == 1 && phase(exchanges.get(0)) == expected);
  }

  private void assertEndedOnceWithNothingHeld(String code) {
    awaitPhase(ExchangePhase.DONE);
    String scrape = metrics.scrape();
    assertThat(director.inflight().used()).isZero();
    assertThat(scrape).contains("modelplane_gateway_active_requests 0.0")
        .containsPattern("modelplane_gateway_requests_total\\{code=\"" + code + "\",model_name=\"[^\"]*\"} 1.0")
        .containsPattern("inference_objective_running_requests\\{model_name=\"m\"} 0.0");
    await().atMost(Duration.ofSeconds(5)).until(() -> plugin.outcome() != null);
    assertThat(plugin.events().stream().filter(e -> e.startsWith("responseComplete"))).hasSize(1);
    assertThat(plugin.outcome().completed()).isFalse();
  }

  @Test
  void anUpstreamFailingMidRelayEndsTheStreamWithAnErrorEventAndTheExchangeOnce() throws Exception {
    HttpResponse<InputStream> r = stream();
    assertThat(r.statusCode()).isEqualTo(200);
    List<String> lines = new CopyOnWriteArrayList<>();
    CompletableFuture<Throwable> ended = SseLines.read(r.body(), lines);
    awaitPhase(ExchangePhase.RELAYING);
    assertThat(director.inflight().used()).as("the body is held while its response is relayed")
        .isEqualTo(BODY.length());

    upstreamDies.complete(null);
    assertThat(get(ended)).as("the stream ends with an error, not a clean end").isNotNull();
    assertThat(lines.get(0)).contains("tok0");
    // The connection is closed right after the error event, which now and then overtakes it on loopback.
    assertThat(lines.subList(1, lines.size())).hasSizeLessThanOrEqualTo(1)
        .allSatisfy(l -> assertThat(l).startsWith("data: {\"error\":").contains("upstream failed mid-response"));
    assertEndedOnceWithNothingHeld("200");
    assertThat(metrics.scrape())
        .contains("modelplane_gateway_aborted_responses_total{reason=\"upstream_failed\"} 1.0");
  }

  @Test
  void aClientLeavingMidRelayIs499AndNotTakenForAnUpstreamFailure() throws Exception {
    HttpResponse<InputStream> r = stream();
    BufferedReader reader = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8));
    assertThat(reader.readLine()).contains("tok0");
    awaitPhase(ExchangePhase.RELAYING);
    r.body().close();
    // Resetting the upstream request fails its response: that is the client's doing, not the upstream's.
    assertEndedOnceWithNothingHeld("499");
    assertThat(metrics.scrape()).doesNotContain("modelplane_gateway_aborted_responses_total{");
  }

  @Test
  void aClientLeavingWhileTheResponseIsAwaitedEndsTheExchangeOnce() throws Exception {
    upstreamAnswers = false;
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", gateway.actualPort()), 5_000);
      s.getOutputStream().write(("POST /v1/chat/completions HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json"
          + "\r\nContent-Length: " + BODY.length() + "\r\n\r\n" + BODY).getBytes(StandardCharsets.UTF_8));
      awaitPhase(ExchangePhase.WAITING);
      assertThat(upstreamRequests).hasSize(1);
      assertThat(director.inflight().used()).isEqualTo(BODY.length());
    }
    assertEndedOnceWithNothingHeld("499");
  }
}
