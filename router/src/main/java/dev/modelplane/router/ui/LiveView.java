package dev.modelplane.router.ui;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.pool.PoolRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * What the live page ({@code /ui} on the metrics port) shows: the pools and their endpoints as the router sees them
 * now (scraped queue, running requests, KV-cache use), the last routing decisions (a bounded ring) and the traffic of
 * the last minutes (bounded time buckets: requests/s, tokens/s, TTFT percentiles). Fed by the request director once
 * per finished request; read by {@link #stateJson()}. Keeps no request content.
 */
public final class LiveView {
  /** Decisions kept for the page. */
  public static final int DECISIONS = 50;
  /** Width of a traffic bucket. */
  public static final Duration BUCKET = Duration.ofSeconds(10);
  /** Buckets kept: ten minutes of {@link #BUCKET}s. */
  public static final int BUCKETS = 60;
  /** Buckets the summary ("last minute") adds up. */
  static final int SUMMARY_BUCKETS = 6;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final PoolRegistry pools;
  private final LongSupplier clockMillis;
  private final LongSupplier nanoClock;
  private final long stalenessNanos;
  private final DecisionLog decisions;
  private final TrafficWindow traffic;
  private volatile Function<EndpointPool, String> pickers = p -> "in-process";

  /**
   * @param pools the router's pools
   * @param clockMillis wall clock, epoch milliseconds (decision times and buckets)
   * @param nanoClock the clock the scraper stamps snapshots with ({@link System#nanoTime()})
   * @param staleness scraped metrics older than this count as stale (the endpoint is shown not ready)
   */
  public LiveView(PoolRegistry pools, LongSupplier clockMillis, LongSupplier nanoClock, Duration staleness,
      int decisionCapacity, Duration bucket, int buckets) {
    this.pools = pools;
    this.clockMillis = clockMillis;
    this.nanoClock = nanoClock;
    this.stalenessNanos = staleness.toNanos();
    this.decisions = new DecisionLog(decisionCapacity);
    this.traffic = new TrafficWindow(bucket.toMillis(), buckets);
  }

  /** A live view with the default bounds, on the system clocks. */
  public static LiveView of(PoolRegistry pools, Duration staleness) {
    return new LiveView(pools, System::currentTimeMillis, System::nanoTime, staleness, DECISIONS, BUCKET, BUCKETS);
  }

  /** How the page names each pool's endpoint picker (default: {@code in-process}). */
  public void pickers(Function<EndpointPool, String> names) {
    this.pickers = names;
  }

  /** The wall clock the decisions are stamped with. */
  public long nowMillis() {
    return clockMillis.getAsLong();
  }

  /** A request finished (or was refused): one row of the decisions, and counted in the traffic. */
  public void record(LiveDecision d) {
    decisions.add(d);
    traffic.record(d.timeMillis(), d.ok(), d.tokens(), d.ttftMs());
  }

  /** The page's state as JSON, safe to embed in HTML ({@code <}, {@code >}, {@code &} escaped as {@code \\uXXXX}). */
  public String stateJson() {
    ObjectNode root = JSON.createObjectNode();
    long now = clockMillis.getAsLong();
    root.put("now", now);
    String unavailable = pools.unavailableReason();
    root.put("ready", unavailable == null);
    if (unavailable != null) {
      root.put("unavailableReason", unavailable);
    }
    poolsJson(root.putArray("pools"));
    decisionsJson(root);
    trafficJson(root.putObject("traffic"), now);
    return htmlSafe(root.toString());
  }

  private void poolsJson(ArrayNode out) {
    List<EndpointPool> sorted = new ArrayList<>(pools.pools());
    sorted.sort(Comparator.comparing(p -> p.key().toString()));
    long nowNanos = nanoClock.getAsLong();
    Function<EndpointPool, String> names = pickers;
    for (EndpointPool p : sorted) {
      ObjectNode pool = out.addObject();
      pool.put("name", p.key().name());
      pool.put("namespace", p.key().namespace());
      pool.put("picker", names.apply(p));
      ArrayNode endpoints = pool.putArray("endpoints");
      int ready = 0;
      List<EndpointState> states = new ArrayList<>(p.endpoints());
      states.sort(Comparator.comparing(s -> s.id().toString()));
      for (EndpointState s : states) {
        MetricsSnapshot m = s.metrics();
        boolean fresh = !m.isStale(nowNanos, stalenessNanos);
        boolean up = fresh && !s.isUnreachable(nowNanos);
        ready += up ? 1 : 0;
        ObjectNode e = endpoints.addObject();
        e.put("name", s.id().name());
        e.put("namespace", s.id().namespace());
        e.put("address", s.endpoint().hostPort());
        e.put("ready", up);
        e.put("scraped", m.updated());
        e.put("running", m.runningRequests());
        e.put("waiting", m.waitingQueueSize());
        e.put("kvCache", m.kvCacheUsage());
        e.put("inFlight", s.inFlight());
        if (m.updated()) {
          e.put("scrapeAgeMillis", Math.max(0, (nowNanos - m.updateTimeNanos()) / 1_000_000));
        }
      }
      pool.put("ready", ready);
    }
  }

  private void decisionsJson(ObjectNode root) {
    root.put("decisionsTotal", decisions.total());
    ArrayNode out = root.putArray("decisions");
    for (LiveDecision d : decisions.newestFirst()) {
      ObjectNode o = out.addObject();
      o.put("time", d.timeMillis());
      o.put("pool", d.pool());
      o.put("model", d.model());
      o.put("targetModel", d.targetModel());
      o.put("endpoint", d.endpoint());
      o.put("address", d.address());
      o.put("reason", d.reason());
      o.put("status", d.status());
      putMillis(o, "ttftMs", d.ttftMs() < 0 ? Double.NaN : d.ttftMs());
      putMillis(o, "durationMs", d.durationMs() < 0 ? Double.NaN : d.durationMs());
      o.put("tokens", d.tokens());
    }
  }

  private void trafficJson(ObjectNode out, long now) {
    long width = traffic.bucketMillis();
    out.put("bucketSeconds", width / 1000.0);
    List<TrafficWindow.Bucket> buckets = traffic.buckets(now);
    ArrayNode series = out.putArray("buckets");
    for (TrafficWindow.Bucket b : buckets) {
      // The current bucket is still filling: its rates are over the time it has run so far.
      double seconds = Math.max(1, Math.min(width, now - b.startMillis() + 1)) / 1000.0;
      ObjectNode o = series.addObject();
      o.put("start", b.startMillis());
      o.put("requests", b.requests());
      o.put("errors", b.errors());
      o.put("requestsPerSecond", round(b.requests() / seconds));
      o.put("tokensPerSecond", round(b.tokens() / seconds));
      putMillis(o, "ttftP50", TrafficWindow.quantile(b.ttft(), 0.5));
      putMillis(o, "ttftP90", TrafficWindow.quantile(b.ttft(), 0.9));
      putMillis(o, "ttftP99", TrafficWindow.quantile(b.ttft(), 0.99));
    }
    List<TrafficWindow.Bucket> recent = buckets.subList(Math.max(0, buckets.size() - SUMMARY_BUCKETS),
        buckets.size());
    long requests = 0;
    long errors = 0;
    long tokens = 0;
    List<int[]> histograms = new ArrayList<>();
    for (TrafficWindow.Bucket b : recent) {
      requests += b.requests();
      errors += b.errors();
      tokens += b.tokens();
      histograms.add(b.ttft());
    }
    long first = recent.get(0).startMillis();
    double seconds = Math.max(1, Math.min((long) recent.size() * width, now - first + 1)) / 1000.0;
    int[] merged = TrafficWindow.merge(histograms);
    ObjectNode summary = out.putObject("recent");
    summary.put("seconds", round(seconds));
    summary.put("requests", requests);
    summary.put("errors", errors);
    summary.put("requestsPerSecond", round(requests / seconds));
    summary.put("tokensPerSecond", round(tokens / seconds));
    putMillis(summary, "ttftP50", TrafficWindow.quantile(merged, 0.5));
    putMillis(summary, "ttftP90", TrafficWindow.quantile(merged, 0.9));
    putMillis(summary, "ttftP99", TrafficWindow.quantile(merged, 0.99));
  }

  /** A millisecond value, or JSON null for none (Jackson would write NaN, which is not JSON). */
  private static void putMillis(ObjectNode o, String name, double ms) {
    if (Double.isNaN(ms)) {
      o.putNull(name);
    } else {
      o.put(name, round(ms));
    }
  }

  private static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }

  /**
   * JSON text with {@code <}, {@code >} and {@code &} written as {@code \\u003c}, {@code \\u003e}, {@code \\u0026}:
   * outside strings JSON never has them, so this only changes how strings are spelled, and the text can then never
   * close a script element or open a tag wherever it ends up.
   */
  static String htmlSafe(String json) {
    StringBuilder sb = new StringBuilder(json.length() + 16);
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      switch (c) {
        case '<' -> sb.append("\\u003c");
        case '>' -> sb.append("\\u003e");
        case '&' -> sb.append("\\u0026");
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }
}
