package dev.modelplane.router.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.router.config.ConfigLoader;
import dev.modelplane.router.config.PluginRegistry;
import dev.modelplane.router.config.SchedulingSetup;
import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.scheduling.ResponseOutcome;
import dev.modelplane.router.ui.LiveView;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The director feeds the live view one row per request: where it went, how it ended, and nothing of its content. */
class LiveViewFeedTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long MS = 1_000_000L;
  private static final String SECRET = "the prompt text stays private";
  private final ScheduledExecutorService flow = Executors.newSingleThreadScheduledExecutor();
  private final PoolRegistry pools = new PoolRegistry();
  private final EndpointPool pool = pools.getOrCreate(new PoolKey("ns", "pool"));
  private final LiveView view = new LiveView(pools, () -> 1_700_000_000_000L, System::nanoTime, Duration.ofSeconds(2),
      10, Duration.ofSeconds(10), 6);
  private final RequestDirector director;

  LiveViewFeedTest() {
    SchedulingSetup setup = new ConfigLoader(PluginRegistry.builtIn(), PluginEnvironment.direct(), null)
        .load(ConfigLoader.DEFAULT_CONFIG);
    director = new RequestDirector(setup, new RouterMetrics(pools, System::nanoTime, 2_000_000_000L),
        System::nanoTime, flow);
  }

  @AfterEach
  void stop() {
    director.close();
    flow.shutdownNow();
  }

  private RoutingDecision route(long receivedNanos) throws Exception {
    byte[] body = ("{\"model\":\"m\",\"prompt\":\"" + SECRET + "\"}").getBytes(StandardCharsets.UTF_8);
    return director.route(new RequestInput(pool, "/v1/completions", new HashMap<>(), body, null, receivedNanos))
        .decision().get(10, TimeUnit.SECONDS);
  }

  private JsonNode rows() throws Exception {
    String state = view.stateJson();
    assertThat(state).doesNotContain(SECRET);
    return JSON.readTree(state).get("decisions");
  }

  @Test
  void aStreamHasItsTimeToFirstTokenAPlainBodyOnlyItsDuration() throws Exception {
    pool.setEndpoints(List.of(Endpoint.ofStatic("127.0.0.1", 8000)));
    director.liveView(view);
    assertThat(director.responseProgress()).as("the live view reads the stream timing").isNotNull();
    long t0 = System.nanoTime();
    RoutingDecision stream = route(t0);
    director.complete(stream, new ResponseOutcome(200, true, 900, t0 + 30 * MS, t0 + 90 * MS, 7), t0 + 100 * MS);
    RoutingDecision plain = route(t0);
    director.complete(plain, new ResponseOutcome(200, true, 300, t0 + 250 * MS, t0 + 250 * MS, 0), t0 + 250 * MS);
    RoutingDecision unanswered = route(t0);
    director.complete(unanswered, new ResponseOutcome(0, false, 0), t0 + 5 * MS);

    JsonNode rows = rows();
    assertThat(rows).hasSize(3);
    JsonNode s = rows.get(2);
    assertThat(s.get("pool").asText()).isEqualTo("ns/pool");
    assertThat(s.get("model").asText()).isEqualTo("m");
    assertThat(s.get("targetModel").asText()).isEqualTo("m");
    assertThat(s.get("address").asText()).isEqualTo("127.0.0.1:8000");
    assertThat(s.get("endpoint").asText()).isEqualTo(stream.destination().state().id().name());
    assertThat(s.get("reason").asText()).isEqualTo("profile " + stream.result().primaryProfileName());
    assertThat(s.get("status").asInt()).isEqualTo(200);
    assertThat(s.get("ttftMs").asDouble()).isEqualTo(30.0);
    assertThat(s.get("durationMs").asDouble()).isEqualTo(100.0);
    assertThat(s.get("tokens").asInt()).isEqualTo(7);
    JsonNode p = rows.get(1);
    assertThat(p.get("ttftMs").isNull()).isTrue();
    assertThat(p.get("durationMs").asDouble()).isEqualTo(250.0);
    assertThat(p.get("tokens").asInt()).isZero();
    assertThat(rows.get(0).get("status").asInt()).as("never answered: the gateway's 502").isEqualTo(502);
  }

  @Test
  void aRefusedRequestIsListedWithTheRoutersReason() throws Exception {
    director.liveView(view);
    assertThatThrownBy(() -> route(System.nanoTime())).isInstanceOf(ExecutionException.class)
        .hasCauseInstanceOf(RouterException.class);
    JsonNode row = rows().get(0);
    assertThat(row.get("pool").asText()).isEqualTo("ns/pool");
    assertThat(row.get("status").asInt()).isEqualTo(503);
    assertThat(row.get("reason").asText()).isEqualTo("ServiceUnavailable");
    assertThat(row.get("endpoint").asText()).isEmpty();
    assertThat(JSON.readTree(view.stateJson()).get("traffic").get("recent").get("errors").asInt()).isEqualTo(1);
  }

  @Test
  void withoutALiveViewNothingIsRecorded() throws Exception {
    pool.setEndpoints(List.of(Endpoint.ofStatic("127.0.0.1", 8000)));
    long t0 = System.nanoTime();
    RoutingDecision d = route(t0);
    director.complete(d, new ResponseOutcome(200, true, 10), t0 + MS);
    assertThat(rows()).isEmpty();
  }
}
