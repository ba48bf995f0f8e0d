package dev.modelplane.router.flowcontrol;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import dev.modelplane.router.scheduling.Filter;
import dev.modelplane.router.scheduling.InferenceRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * GIE's {@code concurrency-detector}, counting requests: the pool's saturation is the requests in flight on the
 * candidates over their summed capacity ({@code maxConcurrency} each; 1.0 with no candidates). As a filter it keeps the
 * endpoints below {@code maxConcurrency × (1 + headroom)} and may keep none. In flight is what this router knows
 * without a scrape ({@link EndpointState#load()}): requests it sent and has not seen finish, plus those it has just
 * chosen the endpoint for, so a burst of decisions counts at once. Each router replica counts only its own requests.
 */
public final class ConcurrencyDetector extends NamedPlugin implements SaturationDetector, Filter {
  public static final String TYPE = "concurrency-detector";

  /**
   * Parameters with GIE's defaults: 100 requests per endpoint, no headroom.
   *
   * @param maxConcurrency requests one endpoint should run at once
   * @param headroom how far above {@code maxConcurrency} the filter lets an endpoint go, as a fraction
   */
  public record Config(int maxConcurrency, double headroom) {
    public static final Config DEFAULT = new Config(100, 0.0);

    /**
     * Reads GIE's parameter names. Only {@code concurrencyMode: requests} is supported: the {@code tokens} and
     * {@code hybrid} modes need a token estimate of every request, which this router does not make.
     */
    public static Config from(PluginParameters p) {
      String mode = p.text("concurrencyMode", "requests");
      if (!"requests".equals(mode)) {
        throw new IllegalArgumentException("concurrencyMode '" + mode + "' is not supported (supported: requests)");
      }
      double maxTokens = p.doubleValue("maxTokenConcurrency", 1_000_000);
      if (maxTokens <= 0) {
        throw new IllegalArgumentException("maxTokenConcurrency must be greater than 0, got " + maxTokens);
      }
      return new Config(p.intValue("maxConcurrency", DEFAULT.maxConcurrency()),
          p.doubleValue("headroom", DEFAULT.headroom()));
    }

    public Config {
      if (maxConcurrency <= 0) {
        throw new IllegalArgumentException("maxConcurrency must be greater than 0, got " + maxConcurrency);
      }
      if (headroom < 0) {
        throw new IllegalArgumentException("headroom must be a non-negative value, got " + headroom);
      }
    }
  }

  private final Config config;
  private final long filterLimit;

  public ConcurrencyDetector(String name, Config config) {
    super(TYPE, name);
    this.config = config;
    this.filterLimit = (long) (config.maxConcurrency() * (1.0 + config.headroom()));
  }

  /** Factory; parameters as {@link Config#from}. */
  public static ConcurrencyDetector create(String name, PluginParameters parameters, PluginHandle handle) {
    return new ConcurrencyDetector(name, Config.from(parameters));
  }

  public Config config() {
    return config;
  }

  @Override
  public double saturation(List<EndpointState> candidates) {
    if (candidates.isEmpty()) {
      return 1.0;
    }
    long load = 0;
    for (EndpointState e : candidates) {
      load += e.load();
    }
    return (double) load / ((long) config.maxConcurrency() * candidates.size());
  }

  @Override
  public List<Candidate> filter(CycleState state, InferenceRequest request, List<Candidate> candidates) {
    List<Candidate> out = new ArrayList<>(candidates.size());
    for (Candidate c : candidates) {
      if (c.state().load() < filterLimit) {
        out.add(c);
      }
    }
    return out;
  }
}
