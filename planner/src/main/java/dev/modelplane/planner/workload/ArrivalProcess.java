package dev.modelplane.planner.workload;

import java.util.SplittableRandom;

/** When requests arrive: the gaps between consecutive arrivals, at a mean rate in requests per second. */
public sealed interface ArrivalProcess {
  /** Mean arrivals per second. */
  double rate();

  /** The same process at another mean rate. */
  ArrivalProcess withRate(double requestsPerSecond);

  /** Seconds until the next arrival, drawn from {@code random}. */
  double nextGapSeconds(SplittableRandom random);

  /** Poisson arrivals: exponential gaps. */
  record Poisson(double rate) implements ArrivalProcess {
    public Poisson {
      checkRate(rate);
    }

    @Override
    public ArrivalProcess withRate(double requestsPerSecond) {
      return new Poisson(requestsPerSecond);
    }

    @Override
    public double nextGapSeconds(SplittableRandom random) {
      return random.nextExponential() / rate;
    }

    @Override
    public String toString() {
      return "Poisson " + LengthDistribution.number(rate) + " req/s";
    }
  }

  /** A request every {@code 1/rate} seconds exactly. */
  record Constant(double rate) implements ArrivalProcess {
    public Constant {
      checkRate(rate);
    }

    @Override
    public ArrivalProcess withRate(double requestsPerSecond) {
      return new Constant(requestsPerSecond);
    }

    @Override
    public double nextGapSeconds(SplittableRandom random) {
      return 1 / rate;
    }

    @Override
    public String toString() {
      return "constant " + LengthDistribution.number(rate) + " req/s";
    }
  }

  /**
   * Gamma-distributed gaps with coefficient of variation {@code cv} (their standard deviation over their mean): 1 is
   * Poisson, above 1 burstier, below 1 more regular.
   */
  record Gamma(double rate, double cv) implements ArrivalProcess {
    public Gamma {
      checkRate(rate);
      if (!(cv > 0) || Double.isInfinite(cv)) {
        throw new IllegalArgumentException("the burstiness (cv) must be > 0, got " + cv);
      }
    }

    @Override
    public ArrivalProcess withRate(double requestsPerSecond) {
      return new Gamma(requestsPerSecond, cv);
    }

    @Override
    public double nextGapSeconds(SplittableRandom random) {
      double shape = 1 / (cv * cv);
      return gamma(shape, random) / (shape * rate);
    }

    @Override
    public String toString() {
      return "gamma " + LengthDistribution.number(rate) + " req/s (cv " + LengthDistribution.number(cv) + ")";
    }

    /** A Gamma(shape, 1) draw: Marsaglia and Tsang's method, boosted for shapes below 1. */
    private static double gamma(double shape, SplittableRandom random) {
      if (shape < 1) {
        double u = random.nextDouble();
        return gamma(shape + 1, random) * Math.pow(u, 1 / shape);
      }
      double d = shape - 1.0 / 3;
      double c = 1 / Math.sqrt(9 * d);
      for (int round = 0; round < 1000; round++) { // accepts with probability above 0.95 per round
        double x = random.nextGaussian();
        double v = 1 + c * x;
        if (v <= 0) {
          continue;
        }
        v = v * v * v;
        double u = random.nextDouble();
        if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) {
          return d * v;
        }
      }
      return d; // unreachable in practice: the mean, rather than an unbounded loop
    }
  }

  private static void checkRate(double rate) {
    if (!(rate > 0) || Double.isInfinite(rate)) {
      throw new IllegalArgumentException("the rate must be > 0 requests/s, got " + rate);
    }
  }
}
