package dev.modelplane.router.predict;

import java.util.Arrays;

/**
 * A linear model {@code y ≈ θ·x} learned one observation at a time by recursive least squares with exponential
 * forgetting: each update costs O(d²), old observations weigh {@code λ^age}, so the model follows a server whose speed
 * changes. It starts from a prior {@code θ₀} held with confidence {@code 1/δ} (a ridge penalty towards the prior that
 * the data overrides after a few observations). The covariance is kept bounded, so a direction the data stops
 * exciting cannot wind up and make the next update explode. Predictions use the coefficients clipped at zero: every
 * feature the router uses is a count of work, and more work never makes a server faster, so a negative coefficient is
 * an artefact of correlated features — one that extrapolates to negative latencies exactly where an endpoint is most
 * loaded, and would draw every request there. (The fit itself stays unconstrained: clipping inside the recursion
 * would leave a bias the shrinking gain never removes.)
 *
 * <p>Not thread-safe; callers synchronise.
 */
final class RecursiveLeastSquares {
  private static final double MAX_TRACE_PER_DIMENSION = 1e6;

  private final int dimensions;
  private final double forgetting;
  private final double[] theta;
  private final double[][] covariance;
  private long samples;

  /**
   * @param prior the starting coefficients (its length is the model's dimension)
   * @param delta the starting covariance {@code δ·I}; larger means the prior is trusted less
   * @param forgetting λ in (0, 1]; 1 never forgets
   */
  RecursiveLeastSquares(double[] prior, double delta, double forgetting) {
    if (prior.length == 0) {
      throw new IllegalArgumentException("a model needs at least one feature");
    }
    if (Arrays.stream(prior).anyMatch(v -> !(v >= 0))) {
      throw new IllegalArgumentException("prior coefficients must be >= 0: " + Arrays.toString(prior));
    }
    if (!(delta > 0)) {
      throw new IllegalArgumentException("delta must be > 0, got " + delta);
    }
    if (!(forgetting > 0 && forgetting <= 1)) {
      throw new IllegalArgumentException("forgetting factor must be in (0, 1], got " + forgetting);
    }
    this.dimensions = prior.length;
    this.forgetting = forgetting;
    this.theta = prior.clone();
    this.covariance = new double[dimensions][dimensions];
    for (int i = 0; i < dimensions; i++) {
      covariance[i][i] = delta;
    }
  }

  private RecursiveLeastSquares(RecursiveLeastSquares other) {
    this.dimensions = other.dimensions;
    this.forgetting = other.forgetting;
    this.theta = other.theta.clone();
    this.covariance = new double[dimensions][];
    for (int i = 0; i < dimensions; i++) {
      covariance[i] = other.covariance[i].clone();
    }
    this.samples = other.samples;
  }

  /** An independent copy that goes on learning on its own. */
  RecursiveLeastSquares copy() {
    return new RecursiveLeastSquares(this);
  }

  double predict(double[] x) {
    check(x);
    double y = 0;
    for (int i = 0; i < dimensions; i++) {
      y += Math.max(0, theta[i]) * x[i];
    }
    return y;
  }

  private double raw(double[] x) {
    double y = 0;
    for (int i = 0; i < dimensions; i++) {
      y += theta[i] * x[i];
    }
    return y;
  }

  /** Learns that {@code x} led to {@code y}. Non-finite inputs are ignored. */
  void update(double[] x, double y) {
    check(x);
    if (!Double.isFinite(y) || !allFinite(x)) {
      return;
    }
    double[] px = new double[dimensions];
    double xpx = 0;
    for (int i = 0; i < dimensions; i++) {
      double s = 0;
      for (int j = 0; j < dimensions; j++) {
        s += covariance[i][j] * x[j];
      }
      px[i] = s;
      xpx += x[i] * s;
    }
    double denominator = forgetting + xpx;
    double error = y - raw(x);
    for (int i = 0; i < dimensions; i++) {
      theta[i] += px[i] / denominator * error;
    }
    double trace = 0;
    for (int i = 0; i < dimensions; i++) {
      for (int j = 0; j < dimensions; j++) {
        covariance[i][j] = (covariance[i][j] - px[i] * px[j] / denominator) / forgetting;
      }
      trace += covariance[i][i];
    }
    double bound = MAX_TRACE_PER_DIMENSION * dimensions;
    if (trace > bound) {
      double scale = bound / trace;
      for (double[] row : covariance) {
        for (int j = 0; j < dimensions; j++) {
          row[j] *= scale;
        }
      }
    }
    samples++;
  }

  /**
   * Forgets how sure the model is, keeping what it believes: the next observations move it as much as the first ones
   * did. For an abrupt change (a server that just got much slower), which forgetting alone would follow only slowly.
   */
  void resetCovariance(double delta) {
    for (int i = 0; i < dimensions; i++) {
      java.util.Arrays.fill(covariance[i], 0);
      covariance[i][i] = delta;
    }
  }

  /** Observations learned so far (including those a copy inherited). */
  long samples() {
    return samples;
  }

  /** The coefficients predictions use (clipped at zero). */
  double[] coefficients() {
    double[] c = theta.clone();
    for (int i = 0; i < dimensions; i++) {
      c[i] = Math.max(0, c[i]);
    }
    return c;
  }

  private void check(double[] x) {
    if (x.length != dimensions) {
      throw new IllegalArgumentException("expected " + dimensions + " features, got " + x.length);
    }
  }

  private static boolean allFinite(double[] x) {
    return Arrays.stream(x).allMatch(Double::isFinite);
  }
}
