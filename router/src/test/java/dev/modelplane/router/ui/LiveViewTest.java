package dev.modelplane.router.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.EndpointId;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.pool.PoolRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The live page's state: bounded decisions, time buckets, percentiles, and JSON that markup cannot break out of. */
class LiveViewTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String HOSTILE = "<script>alert(1)</script>&\"'";

  private final AtomicLong millis = new AtomicLong(1_700_000_000_000L);
  private final AtomicLong nanos = new AtomicLong(5_000_000_000L);
  private final PoolRegistry pools = new PoolRegistry();

  private LiveView view(int decisions, int buckets) {
    return new LiveView(pools, millis::get, nanos::get, Duration.ofSeconds(2), decisions, Duration.ofSeconds(10),
        buckets);
  }

  private static LiveDecision decision(long time, String model, int status, double ttftMs, int tokens) {
    return new LiveDecision(time, "ns/pool", model, model, "pod-a", "127.0.0.1:8000", "profile default", status,
        ttftMs, 2 * ttftMs, tokens);
  }

  private JsonNode state(LiveView v) throws Exception {
    return JSON.readTree(v.stateJson());
  }

  @Test
  void keepsOnlyTheLastDecisionsNewestFirstAndCountsAll() throws Exception {
    LiveView v = view(3, 6);
    for (int i = 0; i < 5; i++) {
      v.record(decision(millis.get() + i, "m" + i, 200, 10, 1));
    }
    JsonNode s = state(v);
    assertThat(s.get("decisionsTotal").asLong()).isEqualTo(5);
    assertThat(s.get("decisions")).hasSize(3);
    assertThat(s.get("decisions").findValuesAsText("model")).containsExactly("m4", "m3", "m2");
  }

  @Test
  void anEmptyLogListsNothing() throws Exception {
    JsonNode s = state(view(3, 6));
    assertThat(s.get("decisions")).isEmpty();
    assertThat(s.get("decisionsTotal").asLong()).isZero();
    assertThat(s.get("traffic").get("recent").get("ttftP50").isNull()).isTrue();
  }

  @Test
  void boundsMustBePositive() {
    assertThatThrownBy(() -> new DecisionLog(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("capacity must be >= 1, got 0");
    assertThatThrownBy(() -> new TrafficWindow(0, 5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bucketMillis and buckets must be >= 1");
    assertThatThrownBy(() -> new TrafficWindow(1000, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void bucketsHoldTheWindowAndForgetWhatIsOlder() {
    TrafficWindow w = new TrafficWindow(10_000, 3);
    long t0 = 1_000_000_000L; // a bucket boundary
    w.record(t0 + 1, true, 5, 20);
    w.record(t0 + 10_001, false, 0, -1);
    w.record(t0 + 20_001, true, 7, 40);
    List<TrafficWindow.Bucket> b = w.buckets(t0 + 25_000);
    assertThat(b).extracting(TrafficWindow.Bucket::startMillis).containsExactly(t0, t0 + 10_000, t0 + 20_000);
    assertThat(b).extracting(TrafficWindow.Bucket::requests).containsExactly(1, 1, 1);
    assertThat(b).extracting(TrafficWindow.Bucket::errors).containsExactly(0, 1, 0);
    assertThat(b).extracting(TrafficWindow.Bucket::tokens).containsExactly(5L, 0L, 7L);
    // Ten seconds later the oldest bucket's slot is reused: its counts are gone, not added to.
    w.record(t0 + 30_001, true, 1, 10);
    List<TrafficWindow.Bucket> later = w.buckets(t0 + 30_001);
    assertThat(later).extracting(TrafficWindow.Bucket::startMillis)
        .containsExactly(t0 + 10_000, t0 + 20_000, t0 + 30_000);
    assertThat(later).extracting(TrafficWindow.Bucket::requests).containsExactly(1, 1, 1);
    assertThat(later.get(2).tokens()).isEqualTo(1);
    // Far in the future every bucket reads empty, though no slot was written since.
    assertThat(w.buckets(t0 + 1_000_000)).extracting(TrafficWindow.Bucket::requests).containsOnly(0);
  }

  @Test
  void percentilesAreTheBinUpperBoundWithinTwentyPercent() {
    for (double ms : new double[] {0.2, 1, 1.5, 7, 33, 250, 1234, 9_000}) {
      double bound = TrafficWindow.upperBound(TrafficWindow.bin(ms));
      assertThat(bound).as("bound of %s ms", ms).isGreaterThanOrEqualTo(ms).isLessThanOrEqualTo(Math.max(1, ms * 1.2));
    }
    assertThat(TrafficWindow.bin(1e9)).isEqualTo(TrafficWindow.BINS - 1);
    int[] h = new int[TrafficWindow.BINS];
    for (int i = 1; i <= 100; i++) {
      h[TrafficWindow.bin(i)]++; // 1..100 ms
    }
    assertThat(TrafficWindow.quantile(h, 0.5)).isBetween(50.0, 60.0);
    assertThat(TrafficWindow.quantile(h, 0.99)).isBetween(99.0, 119.0);
    assertThat(TrafficWindow.quantile(new int[TrafficWindow.BINS], 0.5)).isNaN();
  }

  @Test
  void trafficReportsRatesAndPercentilesOfTheLastMinute() throws Exception {
    LiveView v = view(50, 60);
    long start = Math.floorDiv(millis.get(), 10_000) * 10_000;
    millis.set(start + 9_999); // the end of a full bucket
    for (int i = 0; i < 20; i++) {
      v.record(decision(start + i, "m", 200, 100, 10));
    }
    v.record(decision(start + 50, "m", 503, -1, 0));
    JsonNode t = state(v).get("traffic");
    assertThat(t.get("bucketSeconds").asDouble()).isEqualTo(10.0);
    assertThat(t.get("buckets")).hasSize(60);
    JsonNode last = t.get("buckets").get(59);
    assertThat(last.get("requests").asInt()).isEqualTo(21);
    assertThat(last.get("errors").asInt()).isEqualTo(1);
    assertThat(last.get("requestsPerSecond").asDouble()).isEqualTo(2.1);
    assertThat(last.get("tokensPerSecond").asDouble()).isEqualTo(20.0);
    assertThat(last.get("ttftP50").asDouble()).isBetween(100.0, 120.0);
    assertThat(t.get("buckets").get(0).get("ttftP50").isNull()).isTrue();
    JsonNode recent = t.get("recent");
    assertThat(recent.get("requests").asInt()).isEqualTo(21);
    assertThat(recent.get("errors").asInt()).isEqualTo(1);
    assertThat(recent.get("ttftP99").asDouble()).isBetween(100.0, 120.0);
  }

  @Test
  void poolsShowEndpointsWithScrapedNumbersAndReadiness() throws Exception {
    EndpointPool pool = pools.getOrCreate(new PoolKey("ns", "pool"));
    pool.setEndpoints(List.of(endpoint("pod-b", 8001), endpoint("pod-a", 8000)));
    EndpointState a = pool.byHostPort("127.0.0.1:8000");
    a.updateMetrics(MetricsSnapshot.of(3, 0.25, nanos.get() - 500_000_000L).withRunning(4));
    a.requestStarted();
    LiveView v = view(50, 60);
    v.pickers(p -> "picker of " + p.key().name());
    JsonNode p = state(v).get("pools").get(0);
    assertThat(p.get("name").asText()).isEqualTo("pool");
    assertThat(p.get("namespace").asText()).isEqualTo("ns");
    assertThat(p.get("picker").asText()).isEqualTo("picker of pool");
    assertThat(p.get("ready").asInt()).isEqualTo(1); // pod-b was never scraped
    JsonNode first = p.get("endpoints").get(0);
    assertThat(first.get("name").asText()).isEqualTo("pod-a");
    assertThat(first.get("address").asText()).isEqualTo("127.0.0.1:8000");
    assertThat(first.get("ready").asBoolean()).isTrue();
    assertThat(first.get("running").asInt()).isEqualTo(4);
    assertThat(first.get("waiting").asInt()).isEqualTo(3);
    assertThat(first.get("kvCache").asDouble()).isEqualTo(0.25);
    assertThat(first.get("inFlight").asInt()).isEqualTo(1);
    assertThat(first.get("scrapeAgeMillis").asLong()).isEqualTo(500);
    JsonNode second = p.get("endpoints").get(1);
    assertThat(second.get("ready").asBoolean()).isFalse();
    assertThat(second.get("scraped").asBoolean()).isFalse();
    assertThat(second.has("scrapeAgeMillis")).isFalse();
    // Stale metrics (older than the staleness bound) make the endpoint not ready.
    nanos.addAndGet(3_000_000_000L);
    assertThat(state(v).get("pools").get(0).get("ready").asInt()).isZero();
  }

  @Test
  void namesWithMarkupAreEscapedInTheTextAndComeBackIntactWhenParsed() throws Exception {
    EndpointPool pool = pools.getOrCreate(new PoolKey("ns", HOSTILE));
    pool.setEndpoints(List.of(new Endpoint(new EndpointId("ns", HOSTILE), "127.0.0.1", 8000, Map.of())));
    LiveView v = view(50, 60);
    v.record(new LiveDecision(millis.get(), HOSTILE, HOSTILE, HOSTILE, HOSTILE, "127.0.0.1:8000", HOSTILE, 200, 5, 9,
        1));
    String text = v.stateJson();
    assertThat(text).doesNotContain("<").doesNotContain(">").doesNotContain("&").contains("\\u003cscript\\u003e");
    JsonNode s = JSON.readTree(text);
    assertThat(s.get("pools").get(0).get("name").asText()).isEqualTo(HOSTILE);
    assertThat(s.get("pools").get(0).get("endpoints").get(0).get("name").asText()).isEqualTo(HOSTILE);
    assertThat(s.get("decisions").get(0).get("model").asText()).isEqualTo(HOSTILE);
    assertThat(s.get("decisions").get(0).get("reason").asText()).isEqualTo(HOSTILE);
  }

  @Test
  void notReadyCarriesTheReason() throws Exception {
    pools.unavailableReason("waiting for the pool's EndpointSlices");
    JsonNode s = state(view(5, 6));
    assertThat(s.get("ready").asBoolean()).isFalse();
    assertThat(s.get("unavailableReason").asText()).isEqualTo("waiting for the pool's EndpointSlices");
  }

  private static Endpoint endpoint(String name, int port) {
    return new Endpoint(new EndpointId("ns", name), "127.0.0.1", port, Map.of());
  }
}
