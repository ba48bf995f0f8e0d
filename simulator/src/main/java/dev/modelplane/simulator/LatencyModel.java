package dev.modelplane.simulator;

import java.util.SplittableRandom;

/**
 * The latency model (model nanoseconds), with llm-d-inference-sim's formulas so the same flags cost the same:
 *
 * <ul>
 *   <li>prefill of one request, per-token calculator: {@code (prefill-overhead + prefill-time-per-token × uncached
 *       tokens) × load factor}; constant calculator: {@code time-to-first-token × load factor};</li>
 *   <li>one decode step of the running batch: {@code inter-token-latency × load factor};</li>
 *   <li>load factor: {@code 1 + (time-factor-under-load − 1)·(running − 1)/(max-num-seqs − 1)};</li>
 *   <li>jitter: Gaussian with the configured standard deviation (at most 30 % of the mean), clamped to ±70 % of the
 *       mean, from a seeded generator.</li>
 * </ul>
 * How prefills and decode steps share the GPU is the engine's business ({@code --prefill-interference}).
 */
final class LatencyModel {
  private final boolean constant;
  private final long ttft;
  private final long ttftStdDev;
  private final long prefillOverhead;
  private final long prefillPerToken;
  private final long prefillStdDev;
  private final long itl;
  private final long itlStdDev;
  private final long loraLoad;
  private final double factor;
  private final int maxNumSeqs;
  private final SplittableRandom random;

  LatencyModel(SimulatorConfig c, long seed) {
    constant = "constant".equals(c.effectiveCalculator());
    ttft = c.timeToFirstToken().toNanos();
    ttftStdDev = c.timeToFirstTokenStdDev().toNanos();
    prefillOverhead = c.prefillOverhead().toNanos();
    prefillPerToken = c.prefillTimePerToken().toNanos();
    prefillStdDev = c.prefillTimeStdDev().toNanos();
    itl = c.interTokenLatency().toNanos();
    itlStdDev = c.interTokenLatencyStdDev().toNanos();
    loraLoad = c.loraLoadTime().toNanos();
    factor = c.timeFactorUnderLoad();
    maxNumSeqs = c.maxNumSeqs();
    random = new SplittableRandom(seed);
  }

  double loadFactor(int running) {
    if (maxNumSeqs <= 1 || running <= 1) {
      return 1.0;
    }
    return 1 + (factor - 1) * (Math.min(running, maxNumSeqs) - 1) / (maxNumSeqs - 1);
  }

  /** Prefill time of one request with {@code uncached} tokens to compute, {@code running} sequences admitted. */
  long prefillNanos(int running, int uncached) {
    double lf = loadFactor(running);
    return constant
        ? jitter(ttft * lf, ttftStdDev)
        : jitter((prefillOverhead + (double) prefillPerToken * uncached) * lf, prefillStdDev);
  }

  /** The compute-bound (GPU) part of that prefill, without overhead or jitter: what a decode step can be stalled by. */
  long prefillComputeNanos(int running, int uncached) {
    double lf = loadFactor(running);
    return Math.round(constant ? ttft * lf : (double) prefillPerToken * uncached * lf);
  }

  /** One decode step with {@code running} sequences admitted. */
  long decodeNanos(int running) {
    return jitter(itl * loadFactor(running), itlStdDev);
  }

  /** Swap cost of bringing one adapter onto the GPU. */
  long loraLoadNanos() {
    return loraLoad;
  }

  private long jitter(double mean, double stdDev) {
    if (mean <= 0) {
      return 0;
    }
    double sd = Math.min(stdDev, 0.3 * mean);
    if (sd <= 0) {
      return Math.round(mean);
    }
    double v = mean + sd * gaussian();
    return Math.round(Math.max(0.3 * mean, Math.min(1.7 * mean, v)));
  }

  private double gaussian() {
    // Box-Muller on the seeded generator, so a seed fixes every sample.
    double u1 = 1.0 - random.nextDouble();
    double u2 = random.nextDouble();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }
}
