package dev.modelplane.router.prefix.precise;

import static dev.modelplane.router.prefix.precise.EngineCache.tokens;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.common.kvevents.EventLayout;
import dev.modelplane.common.kvevents.KvEventPublisher;
import dev.modelplane.common.kvevents.KvEventsConfig;
import dev.modelplane.common.kvevents.KvTopic;
import dev.modelplane.router.Router;
import dev.modelplane.router.RouterOptions;
import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.gateway.GatewayOptions;
import dev.modelplane.router.testing.FakeModelServer;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A router configured with {@code precise-prefix-cache-scorer} in front of three model servers, one of which
 * publishes that it caches a prompt: requests with that prompt go to it, and {@code /metrics} says which index the
 * pool is scored from.
 */
class PreciseRoutingTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private final Vertx upstreams = Vertx.vertx();
  private final List<FakeModelServer> servers = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private Router router;
  private KvEventPublisher publisher;

  @AfterEach
  void tearDown() throws Exception {
    if (publisher != null) {
      publisher.close();
    }
    if (router != null) {
      router.close();
    }
    for (FakeModelServer s : servers) {
      s.close();
    }
    upstreams.close().toCompletionStage().toCompletableFuture().get();
  }

  private String get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + router.gatewayPort() + path))
        .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString()).body();
  }

  private int complete(String prompt) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + router.gatewayPort() + "/v1/completions"))
        .timeout(Duration.ofSeconds(20)).header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"prompt\":\"" + prompt + "\"}")).build(),
        HttpResponse.BodyHandlers.ofString()).statusCode();
  }

  /** The scorer in its single-plugin form, and in llm-d's current form: the producer and the generic scorer. */
  @ParameterizedTest
  @ValueSource(strings = {"precise-prefix-cache-scorer", "precise-prefix-cache-producer"})
  void requestsGoWhereTheServersEventsSayThePromptIsCached(String form) throws Exception {
    for (String name : List.of("a", "b", "c")) {
      servers.add(new FakeModelServer(upstreams, name).start());
    }
    int eventsPort;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      eventsPort = s.getLocalPort();
    }
    String scorer = form.equals("precise-prefix-cache-scorer") ? "precise-prefix-cache-scorer" : "prefix-cache-scorer";
    String config = """
        plugins:
        - type: %s
          parameters:
            tokenProcessorConfig: {blockSize: 4, hashSeed: "42"}
            kvEventsConfig: {zmqEndpoint: "tcp://*:%d", discoverPods: false}
        - type: queue-scorer
        %s
        schedulingProfiles:
        - name: default
          plugins: [{pluginRef: %s, weight: 3}, {pluginRef: queue-scorer}]
        """.formatted(form, eventsPort, scorer.equals(form) ? "" : """
        - type: prefix-cache-scorer
          parameters: {prefixMatchInfoProducerName: precise-prefix-cache-producer}""", scorer);
    GatewayOptions gw = GatewayOptions.defaults().withPort(0).withEventLoops(1).withAccessLog(false);
    String endpoints = String.join(",", servers.stream().map(FakeModelServer::hostPort).toList());
    router = new Router(new RouterOptions("127.0.0.1", gw, -1, -1, -1, endpoints, List.of(), null, config,
        MetricsScraper.Settings.DEFAULT, Duration.ofSeconds(2), null, false, false), new WordTokenizer("m"))
        .start();
    assertThat(router.setup().prefixProducer()).as("the fallback's producer").isNotNull();
    assertThat(get("/metrics"))
        .contains("modelplane_router_prefix_index_mode{mode=\"approximate\",pool=\"static/static\"} 1.0");

    FakeModelServer holder = servers.get(1);
    publisher = new KvEventPublisher(new KvEventsConfig(true, "zmq", "tcp://127.0.0.1:" + eventsPort, null, 10_000,
        100_000, 1000, KvTopic.of(holder.hostPort(), "m")), EventLayout.ARRAY, 0, () -> 1.0);
    var stored = new EngineCache("42", 4, true).serve(tokens(1, 16), null, null);
    await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
      publisher.publish(List.of(stored));
      return get("/metrics")
          .contains("modelplane_router_prefix_index_mode{mode=\"precise\",pool=\"static/static\"} 1.0");
    });

    String prompt = WordTokenizer.prompt(1, 18);
    for (int i = 0; i < 6; i++) {
      assertThat(complete(prompt)).isEqualTo(200);
    }
    assertThat(holder.requests()).isEqualTo(6);
    String metrics = get("/metrics");
    assertThat(metrics).containsPattern(
            "modelplane_router_kv_block_hash_checks_total\\{pool=\"static/static\",result=\"agree\"} [1-9]")
        .contains("modelplane_router_kv_block_hash_checks_total{pool=\"static/static\",result=\"disagree\"} 0.0")
        .contains("modelplane_router_precise_prefix_index_blocks{pool=\"static/static\"} 4.0")
        .contains("modelplane_router_kv_events_total{pool=\"static/static\",type=\"BlockStored\"}");
  }
}
