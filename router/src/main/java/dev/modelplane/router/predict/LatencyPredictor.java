package dev.modelplane.router.predict;

import dev.modelplane.router.pool.EndpointId;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Predicts time to first token and time per output token of a request on an endpoint, and learns from what the router
 * observes. Two shared models ({@link NonNegativeLeastSquares}) say how latency grows with the work in front of a
 * request on a typical endpoint, learned from every endpoint's responses; every endpoint has two speed factors on
 * top — how much slower or faster than typical it has been lately. A factor needs only a few responses to settle, where a full model
 * per endpoint would need many of each kind (cache hits and misses, idle and busy) and, starved of the rare kind,
 * would mispredict exactly those. An endpoint that is slower than the rest — other hardware, a
 * noisy neighbour, a throttled GPU — gets a factor above 1 and traffic moves away from it; an endpoint not seen yet
 * has factor 1.
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
   * @param forgetting forgetting factor λ of the shared models; they remember about {@code 1/(1−λ)} responses
   * @param factorWeight weight of the newest response in an endpoint's speed factor (an exponential average of
   *     observed / predicted, in log space); a response more than 3× off counts {@code max(weight, 0.5)}
   */
  public record Settings(double ridge, double forgetting, double factorWeight) {
    public static final Settings DEFAULT = new Settings(0.01, 0.995, 0.1);

    public Settings {
      if (!(forgetting > 0 && forgetting <= 1)) {
        throw new IllegalArgumentException("forgettingFactor must be in (0, 1], got " + forgetting);
      }
      if (!(ridge > 0)) {
        throw new IllegalArgumentException("ridge must be > 0, got " + ridge);
      }
      if (!(factorWeight > 0 && factorWeight <= 1)) {
        throw new IllegalArgumentException("speedFactorWeight must be in (0, 1], got " + factorWeight);
      }
    }
  }

  private static final double MIN_TTFT_MS = 0.1;
  private static final double MIN_TPOT_MS = 0.01;
  private static final double SURPRISE = Math.log(3);
  private static final double SURPRISE_WEIGHT = 0.5;
  private static final double MAX_LOG_FACTOR = Math.log(100);

  /** An endpoint's speed factors, as logarithms, read and written under the object's lock. */
  private static final class Speed {
    double logTtft;
    double logTpot;
  }

  private final Settings settings;
  private final NonNegativeLeastSquares ttft;
  private final NonNegativeLeastSquares tpot;
  private final ConcurrentHashMap<EndpointId, Speed> speeds = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<EndpointId, AtomicLong> backlog = new ConcurrentHashMap<>();
  private final AtomicLong observations = new AtomicLong();

  public LatencyPredictor(Settings settings) {
    this.settings = settings;
    this.ttft = new NonNegativeLeastSquares(LatencyFeatures.ttftPrior(), settings.ridge(), settings.forgetting());
    this.tpot = new NonNegativeLeastSquares(LatencyFeatures.tpotPrior(), settings.ridge(), settings.forgetting());
  }

  public Settings settings() {
    return settings;
  }

  /** Predicted TTFT and TPOT of a request with {@code features} on {@code endpoint}. */
  public Prediction predict(EndpointId endpoint, LatencyFeatures features) {
    double t = shared(ttft, features.ttftVector());
    double p = shared(tpot, features.tpotVector());
    Speed s = speeds.get(endpoint);
    if (s != null) {
      synchronized (s) {
        t *= Math.exp(s.logTtft);
        p *= Math.exp(s.logTpot);
      }
    }
    return new Prediction(Math.max(MIN_TTFT_MS, t), Math.max(MIN_TPOT_MS, p));
  }

  /** Learns that a request with {@code features} got its first byte from {@code endpoint} after {@code ms}. */
  public void observeTtft(EndpointId endpoint, LatencyFeatures features, double ms) {
    if (learn(ttft, features.ttftVector(), speed(endpoint), true, ms, MIN_TTFT_MS)) {
      observations.incrementAndGet();
    }
  }

  /** Learns that a request with {@code features} streamed from {@code endpoint} at {@code ms} per token. */
  public void observeTpot(EndpointId endpoint, LatencyFeatures features, double ms) {
    learn(tpot, features.tpotVector(), speed(endpoint), false, ms, MIN_TPOT_MS);
  }

  /**
   * Moves the endpoint's factor towards observed / shared prediction, then teaches the shared model the observation
   * as a typical endpoint would have made it: divided by the new factor. (Taught as it is, the shared model would
   * move with the slow endpoints' answers, and the factor of an endpoint not heard from since would go stale.)
   */
  private boolean learn(NonNegativeLeastSquares model, double[] x, Speed speed, boolean first, double ms,
      double floor) {
    if (!(ms >= 0) || Double.isInfinite(ms)) {
      return false;
    }
    double predicted = Math.max(floor, shared(model, x));
    double observed = Math.max(floor, ms);
    double factor;
    synchronized (speed) {
      double current = first ? speed.logTtft : speed.logTpot;
      double error = Math.log(observed / predicted) - current;
      // The further off, the faster the factor moves: jitter barely, a 3x change at once by half.
      double weight = Math.max(settings.factorWeight(), Math.min(SURPRISE_WEIGHT, SURPRISE_WEIGHT * Math.abs(error)
          / SURPRISE));
      double next = Math.max(-MAX_LOG_FACTOR, Math.min(MAX_LOG_FACTOR, current + weight * error));
      if (first) {
        speed.logTtft = next;
      } else {
        speed.logTpot = next;
      }
      factor = Math.exp(next);
    }
    synchronized (model) {
      model.update(x, ms / factor);
    }
    return true;
  }

  private static double shared(NonNegativeLeastSquares model, double[] x) {
    synchronized (model) {
      return model.predict(x);
    }
  }

  private Speed speed(EndpointId endpoint) {
    Speed s = speeds.get(endpoint);
    return s != null ? s : speeds.computeIfAbsent(endpoint, k -> new Speed());
  }

  /**
   * How much one more running request slows each token of the others on {@code endpoint}, in milliseconds: the TPOT
   * model's weight on the batch size, times the endpoint's factor.
   */
  public double tpotPerRunningRequest(EndpointId endpoint) {
    double slope;
    synchronized (tpot) {
      slope = tpot.coefficients()[LatencyFeatures.TPOT_BATCH_INDEX];
    }
    Speed s = speeds.get(endpoint);
    if (s == null) {
      return slope;
    }
    synchronized (s) {
      return slope * Math.exp(s.logTpot);
    }
  }

  /** TTFT observations learned so far. */
  public long observations() {
    return observations.get();
  }

  /** How much slower than the shared model {@code endpoint} has been answering first tokens (1 when unknown). */
  public double ttftFactor(EndpointId endpoint) {
    Speed s = speeds.get(endpoint);
    if (s == null) {
      return 1;
    }
    synchronized (s) {
      return Math.exp(s.logTtft);
    }
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
}
