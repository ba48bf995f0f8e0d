package dev.modelplane.router.flowcontrol;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import dev.modelplane.router.scheduling.Filter;
import dev.modelplane.router.scheduling.InferenceRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * GIE's {@code utilization-detector}. Per endpoint, {@code max(q/queueDepthThreshold, kv/kvCacheUtilThreshold)}, or
 * 1.0 when its metrics are older than {@code metricsStalenessThreshold}; the pool's saturation is the mean (1.0 with no
 * candidates). An endpoint that has never answered a scrape (a server without metrics) counts as 0 rather than GIE's
 * 1.0: nothing is known about its load, and with flow control on by default a pool of such servers would otherwise
 * hold every request in the router for ever. Requests this router sent or chose an endpoint for since its last scrape count as queued there (the
 * scrape cannot show them yet; {@link dev.modelplane.router.pool.EndpointState#unscrapedRequests()}). As a filter it
 * keeps fresh endpoints below the thresholds raised by {@code headroom}, or every endpoint when none qualifies.
 */
public final class UtilizationDetector extends NamedPlugin implements SaturationDetector, Filter {
  public static final String TYPE = "utilization-detector";

  /**
   * Thresholds with GIE's defaults: queue 5, KV 0.8, staleness 200 ms, headroom 0.
   */
  public record Config(int queueDepthThreshold, double kvCacheUtilThreshold, Duration metricsStalenessThreshold,
      double headroom) {
    public static final Config DEFAULT = new Config(5, 0.8, Duration.ofMillis(200), 0.0);

    /** Reads GIE's parameter names, defaulting each to {@link #DEFAULT}. */
    public static Config from(PluginParameters p) {
      return new Config(p.intValue("queueDepthThreshold", DEFAULT.queueDepthThreshold()),
          p.doubleValue("kvCacheUtilThreshold", DEFAULT.kvCacheUtilThreshold()),
          p.duration("metricsStalenessThreshold", DEFAULT.metricsStalenessThreshold()),
          p.doubleValue("headroom", DEFAULT.headroom()));
    }

    public Config {
      if (queueDepthThreshold <= 0) {
        throw new IllegalArgumentException("queueDepthThreshold must be strictly positive, got " + queueDepthThreshold);
      }
      if (kvCacheUtilThreshold <= 0 || kvCacheUtilThreshold > 1) {
        throw new IllegalArgumentException("kvCacheUtilThreshold must be in (0.0, 1.0], got " + kvCacheUtilThreshold);
      }
      if (metricsStalenessThreshold.isNegative() || metricsStalenessThreshold.isZero()) {
        throw new IllegalArgumentException(
            "metricsStalenessThreshold must be strictly positive, got " + metricsStalenessThreshold);
      }
      if (headroom < 0) {
        throw new IllegalArgumentException("headroom must be a non-negative value, got " + headroom);
      }
    }
  }

  private final Config config;
  private final LongSupplier nanoClock;
  private final long stalenessNanos;

  public UtilizationDetector(String name, Config config, LongSupplier nanoClock) {
    super(TYPE, name);
    this.config = config;
    this.nanoClock = nanoClock;
    this.stalenessNanos = config.metricsStalenessThreshold().toNanos();
  }

  /** Factory; parameters as {@link Config#from}. */
  public static UtilizationDetector create(String name, PluginParameters parameters, PluginHandle handle) {
    return new UtilizationDetector(name, Config.from(parameters), handle.environment().nanoClock());
  }

  public Config config() {
    return config;
  }

  @Override
  public double saturation(List<EndpointState> candidates) {
    if (candidates.isEmpty()) {
      return 1.0;
    }
    long now = nanoClock.getAsLong();
    double total = 0;
    for (EndpointState e : candidates) {
      total += endpointSaturation(e.metrics(), e.unscrapedRequests(), now);
    }
    return total / candidates.size();
  }

  double endpointSaturation(MetricsSnapshot m, int unscraped, long now) {
    if (!m.updated()) {
      return 0.0;
    }
    if (m.isStale(now, stalenessNanos)) {
      return 1.0;
    }
    double q = (double) (m.waitingQueueSize() + unscraped) / config.queueDepthThreshold();
    double kv = m.kvCacheUsage() / config.kvCacheUtilThreshold();
    return Math.max(q, kv);
  }

  @Override
  public List<Candidate> filter(CycleState state, InferenceRequest request, List<Candidate> candidates) {
    double qLimit = config.queueDepthThreshold() * (1.0 + config.headroom());
    double kvLimit = config.kvCacheUtilThreshold() * (1.0 + config.headroom());
    long now = nanoClock.getAsLong();
    List<Candidate> out = new ArrayList<>(candidates.size());
    for (Candidate c : candidates) {
      MetricsSnapshot m = c.metrics();
      if (!m.isStale(now, stalenessNanos) && m.waitingQueueSize() < qLimit && m.kvCacheUsage() < kvLimit) {
        out.add(c);
      }
    }
    return out.isEmpty() ? candidates : out;
  }
}
