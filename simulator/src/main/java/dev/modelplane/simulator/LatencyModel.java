package dev.modelplane.simulator;

import java.util.SplittableRandom;

/**
 * Turns an engine step into a duration (model nanoseconds).
 *
 * <ul>
 *   <li>decode part: {@code inter-token-latency × load factor}, the memory-bound cost of one forward pass;</li>
 *   <li>prefill part, per-token calculator: {@code (prefill-overhead + prefill-time-per-token × uncached tokens in
 *       the step) × load factor}; constant calculator: {@code time-to-first-token × load factor} spread over a
 *       prompt's chunks in proportion to their size;</li>
 *   <li>a step that both decodes and prefills costs the larger of the two (the weights are read once for the
 *       whole batch, so a mixed step is bound by whichever of memory or compute dominates), plus the LoRA swap
 *       cost when it loads an adapter.</li>
 * </ul>
 * The load factor is llm-d-inference-sim's: {@code 1 + (time-factor-under-load − 1)·(running − 1)/(max-num-seqs − 1)},
 * so with the same flags a lone request costs the same on both simulators. Jitter is Gaussian with the configured
 * standard deviation (at most 30 % of the mean) clamped to ±70 % of the mean, as the peer does, from a seeded
 * generator.
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

  /** One step: {@code decodes} sequences decode, {@code prefill} describes the prefill chunks. */
  long stepNanos(int running, int decodes, PrefillWork prefill, int adaptersLoaded) {
    double lf = loadFactor(running);
    long decode = decodes > 0 ? jitter(itl * lf, itlStdDev) : 0;
    long pre = 0;
    if (prefill.tokens > 0 || prefill.constantShare > 0) {
      pre = constant
          ? jitter(ttft * prefill.constantShare * lf, ttftStdDev * prefill.constantShare)
          : jitter((prefillOverhead + (double) prefillPerToken * prefill.tokens) * lf, prefillStdDev);
    }
    return Math.max(decode, pre) + adaptersLoaded * loraLoad;
  }

  /** Prefill work in a step: uncached tokens, and for the constant calculator the sum of chunk/prompt shares. */
  static final class PrefillWork {
    int tokens;
    double constantShare;

    void add(int chunk, int uncachedTotal) {
      tokens += chunk;
      constantShare += uncachedTotal <= 0 ? 1.0 : (double) chunk / uncachedTotal;
    }

    boolean isEmpty() {
      return tokens == 0 && constantShare == 0;
    }
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
