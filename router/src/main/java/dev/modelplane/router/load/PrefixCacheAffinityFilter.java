package dev.modelplane.router.load;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import dev.modelplane.router.scheduling.Filter;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.PrefixMatch;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code prefix-cache-affinity-filter} (llm-d's name, parameters and defaults): keeps a request on the endpoints that
 * already cache most of its prompt — "sticky" ones, whose prefix match (matched / total blocks, read from
 * {@link Candidate#prefixMatch()}, whichever prefix producer filled it) is at least {@code affinityThreshold} — until
 * they are too loaded to be worth it. With a scorer behind it ({@code token-load-scorer} in llm-d's recommended
 * profile) the request goes to the least loaded sticky endpoint: cache hits without piling a shared prefix onto one
 * server.
 *
 * <ul>
 *   <li>No candidate sticky, one candidate or fewer, or {@code affinityThreshold} ≤ 0: every candidate is kept.</li>
 *   <li>With probability {@code explorationProbability} the filter keeps every candidate (drawn first), so other
 *       endpoints get to cache the prefix too.</li>
 *   <li>Load gate: each endpoint's time to first token is estimated as its in-flight tokens
 *       ({@link InFlightLoadProducer}) / {@code peakPrefillThroughput} × 1000 ms; when the best sticky estimate
 *       exceeds the best non-sticky one by more than {@code maxTTFTPenaltyMs}, stickiness is broken and every
 *       candidate kept. {@code maxTTFTPenaltyMs: 0} always sticks; with every candidate sticky there is nothing to
 *       compare.</li>
 * </ul>
 */
public final class PrefixCacheAffinityFilter extends NamedPlugin implements Filter {
  public static final String TYPE = "prefix-cache-affinity-filter";
  public static final double DEFAULT_AFFINITY_THRESHOLD = 0.80;
  public static final double DEFAULT_MAX_TTFT_PENALTY_MS = 18_000;
  /** Tokens/s: llm-d's calibration for Qwen 32B on two H100s (TP 2); deployment-specific. */
  public static final double DEFAULT_PEAK_PREFILL_THROUGHPUT = 15_928;
  static final String PREFILL_THROUGHPUT = "prefillThroughput";
  static final String LATENCY_PREDICTOR = "latencyPredictor";
  private static final Logger LOG = LoggerFactory.getLogger(PrefixCacheAffinityFilter.class);

  /** The filter's parameters, validated as llm-d validates them (the gate estimating from prefill throughput). */
  public record Settings(double affinityThreshold, double explorationProbability, double maxTtftPenaltyMs,
      double peakPrefillThroughput) {
    public Settings {
      if (!(affinityThreshold <= 1.0)) {
        throw new IllegalArgumentException("affinityThreshold must be <= 1.0, got " + affinityThreshold);
      }
      if (!(explorationProbability >= 0 && explorationProbability <= 1.0)) {
        throw new IllegalArgumentException("explorationProbability must be in [0, 1], got " + explorationProbability);
      }
      if (!(maxTtftPenaltyMs >= 0)) {
        throw new IllegalArgumentException("maxTTFTPenaltyMs must be >= 0, got " + maxTtftPenaltyMs);
      }
      if (!(peakPrefillThroughput >= 0)) {
        throw new IllegalArgumentException("peakPrefillThroughput must be >= 0, got " + peakPrefillThroughput);
      }
      if (maxTtftPenaltyMs > 0 && peakPrefillThroughput == 0) {
        throw new IllegalArgumentException("peakPrefillThroughput must be > 0 when ttftSource is "
            + PREFILL_THROUGHPUT);
      }
    }

    public static final Settings DEFAULT = new Settings(DEFAULT_AFFINITY_THRESHOLD, 0, DEFAULT_MAX_TTFT_PENALTY_MS,
        DEFAULT_PEAK_PREFILL_THROUGHPUT);
  }

  private final Settings settings;
  private final InFlightLoadProducer producer;
  private final Supplier<RandomGenerator> random;

  /**
   * @param producer in-flight tokens for the load gate; {@code null} only when the gate is off
   * @param random draws the exploration
   */
  public PrefixCacheAffinityFilter(String name, Settings settings, InFlightLoadProducer producer,
      Supplier<RandomGenerator> random) {
    super(TYPE, name);
    if (settings.maxTtftPenaltyMs() > 0 && producer == null) {
      throw new IllegalArgumentException("the load gate needs an " + InFlightLoadProducer.TYPE);
    }
    this.settings = settings;
    this.producer = producer;
    this.random = random;
  }

  /**
   * Factory. Parameters: {@code affinityThreshold} (0.80, ≤ 1), {@code explorationProbability} (0, in [0, 1]),
   * {@code maxTTFTPenaltyMs} (18000, ≥ 0), {@code ttftSource} ({@code prefillThroughput}; llm-d's
   * {@code latencyPredictor} needs its latency-prediction sidecars and is refused while the gate is on),
   * {@code peakPrefillThroughput} (15928 tokens/s, > 0 while the gate is on), {@code inFlightLoadProducerName} (the
   * gate's producer, which must be declared while the gate is on), {@code prefixMatchInfoProducerName} and
   * {@code latencyPredictionInfoProducerName} (accepted; a named prefix producer must be declared).
   */
  public static PrefixCacheAffinityFilter create(String name, PluginParameters p, PluginHandle handle) {
    p.requireOnly("affinityThreshold", "explorationProbability", "maxTTFTPenaltyMs", "ttftSource",
        "peakPrefillThroughput", "prefixMatchInfoProducerName", "latencyPredictionInfoProducerName",
        "inFlightLoadProducerName");
    Settings d = Settings.DEFAULT;
    double threshold = p.doubleValue("affinityThreshold", d.affinityThreshold());
    double exploration = p.doubleValue("explorationProbability", d.explorationProbability());
    double penalty = p.doubleValue("maxTTFTPenaltyMs", d.maxTtftPenaltyMs());
    String source = p.text("ttftSource", PREFILL_THROUGHPUT);
    double peak = p.doubleValue("peakPrefillThroughput", d.peakPrefillThroughput());
    if (!source.equals(PREFILL_THROUGHPUT) && !source.equals(LATENCY_PREDICTOR)) {
      throw new IllegalArgumentException("ttftSource must be \"" + LATENCY_PREDICTOR + "\" or \""
          + PREFILL_THROUGHPUT + "\", got \"" + source + "\"");
    }
    boolean gate = penalty > 0;
    if (gate && source.equals(LATENCY_PREDICTOR)) {
      throw new IllegalArgumentException("ttftSource \"" + LATENCY_PREDICTOR + "\" reads llm-d's "
          + "predicted-latency-producer, which this router does not have; use \"" + PREFILL_THROUGHPUT
          + "\" or maxTTFTPenaltyMs: 0");
    }
    Settings settings = new Settings(threshold, exploration, penalty, peak);
    Producers.requireDeclared(handle, p, "prefixMatchInfoProducerName");
    InFlightLoadProducer producer = gate ? Producers.inFlightLoad(handle, p, "inFlightLoadProducerName") : null;
    return new PrefixCacheAffinityFilter(name, settings, producer, handle.environment().random());
  }

  public Settings settings() {
    return settings;
  }

  @Override
  public List<Candidate> filter(CycleState state, InferenceRequest request, List<Candidate> candidates) {
    if (candidates.size() <= 1 || settings.affinityThreshold() <= 0) {
      return candidates;
    }
    if (random.get().nextDouble() < settings.explorationProbability()) {
      return candidates;
    }
    List<Candidate> sticky = new ArrayList<>();
    List<Candidate> others = new ArrayList<>();
    for (Candidate c : candidates) {
      (matchRatio(c.prefixMatch()) >= settings.affinityThreshold() ? sticky : others).add(c);
    }
    if (sticky.isEmpty()) {
      return candidates;
    }
    if (settings.maxTtftPenaltyMs() > 0 && !others.isEmpty()) {
      double stickyTtft = bestTtftMs(sticky);
      double otherTtft = bestTtftMs(others);
      if (stickyTtft - otherTtft > settings.maxTtftPenaltyMs()) {
        LOG.atDebug().addKeyValue("request_id", request.requestId()).addKeyValue("sticky_ttft_ms", stickyTtft)
            .addKeyValue("other_ttft_ms", otherTtft).log("prefix affinity broken by load");
        return candidates;
      }
    }
    return sticky;
  }

  /** Matched / total blocks; 0 without a match or an empty prompt. */
  static double matchRatio(PrefixMatch m) {
    return m == null || m.totalBlocks() <= 0 ? 0 : (double) m.matchBlocks() / m.totalBlocks();
  }

  private double bestTtftMs(List<Candidate> candidates) {
    double best = Double.MAX_VALUE;
    for (Candidate c : candidates) {
      best = Math.min(best, producer.load(c.endpoint().id()).tokens() / settings.peakPrefillThroughput() * 1000);
    }
    return best;
  }
}
