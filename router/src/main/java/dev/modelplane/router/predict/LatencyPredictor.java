package dev.modelplane.router.predict;

import dev.modelplane.router.pool.EndpointId;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Predicts time to first token and time per output token of a request on an endpoint, and learns from what the router
 * observes. One pooled pair of models learns from every endpoint and answers for endpoints it has seen little of; each
 * endpoint gets its own pair, starting from the pooled coefficients at its first observation, that answers once it has
 * learned from {@code minEndpointSamples} responses of its own — so an endpoint that is slower than the rest (other
 * hardware, a noisy neighbour, a throttled GPU) is predicted slower, and traffic moves away from it.
 *
 * <p>It also keeps the router-local prefill backlog of each endpoint: uncached prompt tokens sent and not yet answered
 * with a first byte. Thread-safe.
 */
public final class LatencyPredictor {
  /** What {@link #predict} expects, in milliseconds. */
  public record Prediction(double ttftMs, double tpotMs) {
  }

  /**
   * @param ridge how strongly coefficients are pulled towards their prior (small: data overrides it)
   * @param forgetting RLS forgetting factor λ; the models remember about {@code 1/(1−λ)} observations
   * @param minEndpointSamples an endpoint's own model answers after this many of its observations
   */
  public record Settings(double ridge, double forgetting, int minEndpointSamples) {
    public static final Settings DEFAULT = new Settings(0.01, 0.995, 1);

    public Settings {
      if (!(forgetting > 0 && forgetting <= 1)) {
        throw new IllegalArgumentException("forgettingFactor must be in (0, 1], got " + forgetting);
      }
      if (!(ridge > 0)) {
        throw new IllegalArgumentException("ridge must be > 0, got " + ridge);
      }
      if (minEndpointSamples < 0) {
        throw new IllegalArgumentException("minEndpointSamples must be >= 0, got " + minEndpointSamples);
      }
    }
  }

  private static final double MIN_TTFT_MS = 0.1;
  private static final double MIN_TPOT_MS = 0.01;
  private static final double SURPRISE_RATIO = 3;

  /** A TTFT and a TPOT model, updated and read under the pair's lock. */
  private static final class ModelPair {
    private final NonNegativeLeastSquares ttft;
    private final NonNegativeLeastSquares tpot;

    ModelPair(NonNegativeLeastSquares ttft, NonNegativeLeastSquares tpot) {
      this.ttft = ttft;
      this.tpot = tpot;
    }

    /**
     * A pair that starts from these coefficients with no history: the endpoint's own observations reshape it as fast
     * as the first observations shaped the pooled pair, instead of being outweighed by the pool's history.
     */
    synchronized ModelPair fork() {
      return new ModelPair(ttft.fresh(), tpot.fresh());
    }

    synchronized boolean ttftReady(long min) {
      return ttft.samples() >= min;
    }

    synchronized boolean tpotReady(long min) {
      return tpot.samples() >= min;
    }
  }

  private final Settings settings;
  private final ModelPair pooled;
  private final ConcurrentHashMap<EndpointId, ModelPair> endpoints = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<EndpointId, AtomicLong> backlog = new ConcurrentHashMap<>();
  private final AtomicLong observations = new AtomicLong();

  public LatencyPredictor(Settings settings) {
    this.settings = settings;
    this.pooled = new ModelPair(
        new NonNegativeLeastSquares(LatencyFeatures.ttftPrior(), settings.ridge(), settings.forgetting()),
        new NonNegativeLeastSquares(LatencyFeatures.tpotPrior(), settings.ridge(), settings.forgetting()));
  }

  public Settings settings() {
    return settings;
  }

  /** Predicted TTFT and TPOT of a request with {@code features} on {@code endpoint}. */
  public Prediction predict(EndpointId endpoint, LatencyFeatures features) {
    ModelPair own = endpoints.get(endpoint);
    double[] tx = features.ttftVector();
    double[] px = features.tpotVector();
    double ttft;
    double tpot;
    ModelPair forTtft = own != null && own.ttftReady(settings.minEndpointSamples()) ? own : pooled;
    synchronized (forTtft) {
      ttft = forTtft.ttft.predict(tx);
    }
    ModelPair forTpot = own != null && own.tpotReady(settings.minEndpointSamples()) ? own : pooled;
    synchronized (forTpot) {
      tpot = forTpot.tpot.predict(px);
    }
    return new Prediction(Math.max(MIN_TTFT_MS, ttft), Math.max(MIN_TPOT_MS, tpot));
  }

  /** Learns that a request with {@code features} got its first byte from {@code endpoint} after {@code ms}. */
  public void observeTtft(EndpointId endpoint, LatencyFeatures features, double ms) {
    double[] x = features.ttftVector();
    synchronized (pooled) {
      pooled.ttft.update(x, ms);
    }
    ModelPair own = endpointModels(endpoint);
    synchronized (own) {
      surprise(own.ttft, x, ms);
      own.ttft.update(x, ms);
    }
    observations.incrementAndGet();
  }

  /** Learns that a request with {@code features} streamed from {@code endpoint} at {@code ms} per token. */
  public void observeTpot(EndpointId endpoint, LatencyFeatures features, double ms) {
    double[] x = features.tpotVector();
    synchronized (pooled) {
      pooled.tpot.update(x, ms);
    }
    ModelPair own = endpointModels(endpoint);
    synchronized (own) {
      surprise(own.tpot, x, ms);
      own.tpot.update(x, ms);
    }
  }

  /** TTFT observations learned so far. */
  public long observations() {
    return observations.get();
  }

  /** Uncached prompt tokens sent to {@code endpoint} and not yet answered. */
  public long pendingPrefillTokens(EndpointId endpoint) {
    AtomicLong v = backlog.get(endpoint);
    return v == null ? 0 : Math.max(0, v.get());
  }

  /** A request with {@code tokens} to prefill was sent to {@code endpoint}. */
  public void prefillStarted(EndpointId endpoint, long tokens) {
    backlog.computeIfAbsent(endpoint, k -> new AtomicLong()).addAndGet(tokens);
  }

  /** That request's first byte came back (or it ended without one). */
  public void prefillEnded(EndpointId endpoint, long tokens) {
    AtomicLong v = backlog.get(endpoint);
    if (v != null) {
      v.addAndGet(-tokens);
    }
  }

  /** The coefficients {@code endpoint}'s TTFT predictions use now (for tests and diagnostics). */
  double[] ttftCoefficients(EndpointId endpoint) {
    ModelPair own = endpoints.get(endpoint);
    ModelPair m = own != null && own.ttftReady(settings.minEndpointSamples()) ? own : pooled;
    synchronized (m) {
      return m.ttft.coefficients();
    }
  }

  /**
   * An observation more than {@link #SURPRISE_RATIO} times off the endpoint's own prediction means the endpoint
   * changed (or the model never knew it): its model drops its history, so it catches up within a few responses
   * instead of a few hundred.
   */
  private void surprise(NonNegativeLeastSquares model, double[] x, double observed) {
    double predicted = Math.max(MIN_TTFT_MS, model.predict(x));
    if (model.samples() > 0 && (observed > SURPRISE_RATIO * predicted || observed * SURPRISE_RATIO < predicted)) {
      model.discountHistory(0);
    }
  }

  private ModelPair endpointModels(EndpointId endpoint) {
    ModelPair own = endpoints.get(endpoint);
    return own != null ? own : endpoints.computeIfAbsent(endpoint, k -> pooled.fork());
  }
}
