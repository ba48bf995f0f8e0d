package dev.modelplane.router.predict;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.pool.EndpointId;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.prefix.PrefixHasher;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import dev.modelplane.router.scheduling.Filter;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.PreRequestPlugin;
import dev.modelplane.router.scheduling.PrefixMatch;
import dev.modelplane.router.scheduling.ProfileRunResult;
import dev.modelplane.router.scheduling.ResponseCompletePlugin;
import dev.modelplane.router.scheduling.ResponseOutcome;
import dev.modelplane.router.scheduling.ResponseReceivedPlugin;
import dev.modelplane.router.scheduling.Scorer;
import dev.modelplane.router.scheduling.ScorerCategory;
import dev.modelplane.router.scheduling.SchedulingResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code predicted-latency-scorer}: predicts each candidate's time to first token and time per output token for this
 * request ({@link LatencyPredictor}) and prefers the one where it costs least: {@code TTFT + tpotWeight × (TPOT ×
 * output tokens + running × ΔTPOT × output tokens / 2)} — its own completion, plus the slowdown one more batch slot
 * ({@code ΔTPOT}) inflicts on the requests already running there, whose remaining tokens are taken as half of this
 * one's. Without that second term every request of a shared prefix piles onto the server holding it until its own
 * decode slowdown outweighs a cache miss, which is far too late for the others. The output tokens are the request's
 * {@code max_completion_tokens} (or {@code max_tokens}), else {@code defaultOutputTokens}. It learns from every streamed response it routed: first-byte time and the pace of the
 * chunks that followed.
 *
 * <p>As a filter it enforces per-request SLOs from the {@code x-slo-ttft-ms} and {@code x-slo-tpot-ms} headers: it
 * keeps the candidates predicted to meet them; when none is, a sheddable request (negative priority) is refused with
 * 429 ({@code shedSheddable}, on by default) and any other request keeps every candidate and gets the best one.
 * Headers that are not positive numbers are ignored. The plugin uses the prefix matches of an
 * {@code approx-prefix-cache-producer} when one runs (it then counts only uncached prompt tokens).
 */
public final class PredictedLatencyScorer extends NamedPlugin implements Filter, Scorer, PreRequestPlugin,
    ResponseReceivedPlugin, ResponseCompletePlugin {
  public static final String TYPE = "predicted-latency-scorer";
  public static final String TTFT_SLO_HEADER = "x-slo-ttft-ms";
  public static final String TPOT_SLO_HEADER = "x-slo-tpot-ms";
  private static final Logger LOG = LoggerFactory.getLogger(PredictedLatencyScorer.class);

  /** One candidate's features and prediction in one scheduling cycle. */
  record Estimate(EndpointId endpoint, LatencyFeatures features, LatencyPredictor.Prediction prediction,
      double costMs) {
  }

  /** Where the request went, with what the predictor knew then; the prefill backlog entry is closed once. */
  private record Dispatch(Estimate estimate, long sentNanos, AtomicBoolean prefillOpen) {
  }

  private record Slo(double ttftMs, double tpotMs) {
    boolean met(LatencyPredictor.Prediction p) {
      return p.ttftMs() <= ttftMs && p.tpotMs() <= tpotMs;
    }
  }

  private final LatencyPredictor predictor;
  private final int defaultOutputTokens;
  private final double tpotWeight;
  private final boolean shedSheddable;
  private final LongSupplier nanoClock;
  private final String estimateKey;
  private final String dispatchKey;
  private final String promptKey;

  public PredictedLatencyScorer(String name, LatencyPredictor predictor, int defaultOutputTokens, double tpotWeight,
      boolean shedSheddable, LongSupplier nanoClock) {
    super(TYPE, name);
    if (defaultOutputTokens < 1) {
      throw new IllegalArgumentException("defaultOutputTokens must be >= 1, got " + defaultOutputTokens);
    }
    if (!(tpotWeight >= 0) || Double.isInfinite(tpotWeight)) {
      throw new IllegalArgumentException("tpotWeight must be a number >= 0, got " + tpotWeight);
    }
    this.predictor = predictor;
    this.defaultOutputTokens = defaultOutputTokens;
    this.tpotWeight = tpotWeight;
    this.shedSheddable = shedSheddable;
    this.nanoClock = nanoClock;
    this.estimateKey = TYPE + "/" + name() + ".estimate";
    this.dispatchKey = TYPE + "/" + name() + ".dispatch";
    this.promptKey = TYPE + "/" + name() + ".promptTokens";
  }

  /**
   * Factory. Parameters: {@code forgettingFactor} (0.995), {@code speedFactorWeight} (0.1),
   * {@code defaultOutputTokens} (128), {@code tpotWeight} (1.0), {@code shedSheddable} (true).
   */
  public static PredictedLatencyScorer create(String name, PluginParameters p, PluginHandle handle) {
    LatencyPredictor.Settings d = LatencyPredictor.Settings.DEFAULT;
    LatencyPredictor predictor = new LatencyPredictor(new LatencyPredictor.Settings(d.ridge(),
        p.doubleValue("forgettingFactor", d.forgetting()), p.doubleValue("speedFactorWeight", d.factorWeight())));
    return new PredictedLatencyScorer(name, predictor, p.intValue("defaultOutputTokens", 128),
        p.doubleValue("tpotWeight", 1.0), p.boolValue("shedSheddable", true), handle.environment().nanoClock());
  }

  public LatencyPredictor predictor() {
    return predictor;
  }

  @Override
  public ScorerCategory category() {
    return ScorerCategory.BALANCE;
  }

  @Override
  public List<Candidate> filter(CycleState state, InferenceRequest request, List<Candidate> candidates) {
    Slo slo = slo(request);
    if (slo == null) {
      return candidates;
    }
    List<Candidate> meeting = new ArrayList<>(candidates.size());
    for (Candidate c : candidates) {
      if (slo.met(estimate(c, request).prediction())) {
        meeting.add(c);
      }
    }
    if (!meeting.isEmpty()) {
      return meeting;
    }
    if (shedSheddable && request.priority() < 0) {
      LOG.atDebug().addKeyValue("request_id", request.requestId()).addKeyValue("slo_ttft_ms", slo.ttftMs())
          .addKeyValue("slo_tpot_ms", slo.tpotMs()).log("no endpoint is predicted to meet the SLO; shedding");
      return List.of();
    }
    return candidates;
  }

  @Override
  public void score(CycleState state, InferenceRequest request, List<Candidate> candidates, double[] scores) {
    double best = Double.POSITIVE_INFINITY;
    double[] cost = new double[candidates.size()];
    for (int i = 0; i < cost.length; i++) {
      cost[i] = estimate(candidates.get(i), request).costMs();
      best = Math.min(best, cost[i]);
    }
    for (int i = 0; i < cost.length; i++) {
      scores[i] = best / cost[i];
    }
  }

  @Override
  public void preRequest(InferenceRequest request, SchedulingResult result) {
    ProfileRunResult primary = result.primary();
    if (primary == null || primary.targets().isEmpty()) {
      return;
    }
    Estimate e = estimate(primary.targets().get(0), request);
    closePrefill(request.attribute(dispatchKey));
    predictor.prefillStarted(e.endpoint(), e.features().uncachedTokens());
    request.attribute(dispatchKey, new Dispatch(e, nanoClock.getAsLong(), new AtomicBoolean(true)));
  }

  @Override
  public void responseReceived(InferenceRequest request, SchedulingResult result, int status,
      EndpointState servedBy) {
    closePrefill(request.attribute(dispatchKey));
  }

  @Override
  public void responseComplete(InferenceRequest request, EndpointState servedBy, ResponseOutcome outcome) {
    Dispatch d = request.attribute(dispatchKey);
    if (d == null) {
      return;
    }
    closePrefill(d);
    // Only streamed answers show when the first token came; a plain body arrives whole at the end.
    if (servedBy == null || !servedBy.id().equals(d.estimate().endpoint()) || outcome.status() < 200
        || outcome.status() >= 300 || outcome.events() == 0 || outcome.firstByteNanos() < 0) {
      return;
    }
    EndpointId id = d.estimate().endpoint();
    double ttftMs = (outcome.firstByteNanos() - d.sentNanos()) / 1e6;
    if (ttftMs >= 0) {
      predictor.observeTtft(id, d.estimate().features(), ttftMs);
    }
    double tpotMs = Double.NaN;
    if (outcome.completed() && outcome.events() >= 3) {
      tpotMs = (outcome.lastByteNanos() - outcome.firstByteNanos()) / 1e6 / (outcome.events() - 1);
      predictor.observeTpot(id, d.estimate().features(), tpotMs);
    }
    if (LOG.isDebugEnabled()) {
      LatencyFeatures f = d.estimate().features();
      LOG.atDebug().addKeyValue("endpoint", id).addKeyValue("uncached", f.uncachedTokens())
          .addKeyValue("backlog", f.pendingPrefillTokens()).addKeyValue("in_flight", f.inFlight())
          .addKeyValue("waiting", f.waiting()).addKeyValue("ttft_predicted_ms", d.estimate().prediction().ttftMs())
          .addKeyValue("ttft_ms", ttftMs).addKeyValue("tpot_predicted_ms", d.estimate().prediction().tpotMs())
          .addKeyValue("tpot_ms", tpotMs).log("latency observed");
    }
  }

  private void closePrefill(Dispatch d) {
    if (d != null && d.prefillOpen().compareAndSet(true, false)) {
      predictor.prefillEnded(d.estimate().endpoint(), d.estimate().features().uncachedTokens());
    }
  }

  /** The candidate's estimate, computed once per scheduling cycle. */
  Estimate estimate(Candidate c, InferenceRequest request) {
    Estimate e = (Estimate) c.attribute(estimateKey);
    if (e != null) {
      return e;
    }
    int prompt = promptTokens(request);
    PrefixMatch m = c.prefixMatch();
    int cached = m == null ? 0 : m.matchBlocks() * m.blockSizeTokens();
    EndpointId id = c.endpoint().id();
    LatencyFeatures f = new LatencyFeatures(prompt, Math.max(0, prompt - cached),
        predictor.pendingPrefillTokens(id), c.state().inFlight(), c.metrics().waitingQueueSize(),
        c.metrics().kvCacheUsage());
    LatencyPredictor.Prediction p = predictor.predict(id, f);
    int tokens = outputTokens(request);
    // What this request costs itself, plus what it costs the requests already running there: each of their
    // remaining tokens (half of theirs, on average, taken as half of this one's) gets slower by one batch slot.
    double others = f.inFlight() * predictor.tpotPerRunningRequest(id) * tokens / 2.0;
    e = new Estimate(id, f, p, p.ttftMs() + tpotWeight * (p.tpotMs() * tokens + others));
    c.attribute(estimateKey, e);
    return e;
  }

  private int promptTokens(InferenceRequest request) {
    Integer cached = request.attribute(promptKey);
    if (cached != null) {
      return cached;
    }
    int tokens = request.body() == null ? 0
        : request.body().userInputBytes().length / PrefixHasher.AVERAGE_CHARACTERS_PER_TOKEN;
    request.attribute(promptKey, tokens);
    return tokens;
  }

  private int outputTokens(InferenceRequest request) {
    int max = request.body() == null ? 0 : request.body().maxOutputTokens();
    return max > 0 ? max : defaultOutputTokens;
  }

  private static Slo slo(InferenceRequest request) {
    double ttft = positive(request.header(TTFT_SLO_HEADER));
    double tpot = positive(request.header(TPOT_SLO_HEADER));
    if (Double.isNaN(ttft) && Double.isNaN(tpot)) {
      return null;
    }
    return new Slo(Double.isNaN(ttft) ? Double.POSITIVE_INFINITY : ttft,
        Double.isNaN(tpot) ? Double.POSITIVE_INFINITY : tpot);
  }

  private static double positive(String value) {
    if (value == null) {
      return Double.NaN;
    }
    try {
      double v = Double.parseDouble(value.trim());
      return v > 0 && Double.isFinite(v) ? v : Double.NaN;
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }
}
