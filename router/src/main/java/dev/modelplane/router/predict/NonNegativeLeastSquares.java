package dev.modelplane.router.predict;

import java.util.Arrays;

/**
 * A linear model {@code y ≈ θ·x} with {@code θ ≥ 0}, learned one observation at a time: the exponentially weighted
 * least-squares problem (old observations weigh {@code λ^age}, so the model follows a server whose speed changes)
 * plus a small ridge pulling each coefficient towards a prior, solved under the constraint after every update by
 * projected coordinate descent on its d×d normal equations, warm-started from the last solution — O(d²) per sweep.
 *
 * <p>Why the constraint: every feature the router uses counts work, and more work never makes a server faster. An
 * unconstrained fit of correlated features (tokens and tokens × batch, say) trades a large positive weight against a
 * negative one; the pair extrapolates to negative latencies exactly where an endpoint is most loaded, and would draw
 * every request there. Clipping such a fit afterwards is worse: the surviving weight alone then predicts seconds for
 * a request that takes milliseconds. Solving with the constraint gives the best fit that cannot do either.
 *
 * <p>Not thread-safe; callers synchronise.
 */
final class NonNegativeLeastSquares {
  private static final int MAX_SWEEPS = 50;
  private static final double TOLERANCE = 1e-9;

  private final int dimensions;
  private final double forgetting;
  private final double ridge;
  private final double[] prior;
  private final double[][] gram;
  private final double[] moment;
  private final double[] theta;
  private long samples;

  /**
   * @param prior the starting coefficients, all ≥ 0 (its length is the model's dimension)
   * @param ridge how strongly each coefficient is pulled towards its prior; small, so data overrides it
   * @param forgetting λ in (0, 1]; 1 never forgets
   */
  NonNegativeLeastSquares(double[] prior, double ridge, double forgetting) {
    if (prior.length == 0) {
      throw new IllegalArgumentException("a model needs at least one feature");
    }
    if (Arrays.stream(prior).anyMatch(v -> !(v >= 0) || Double.isInfinite(v))) {
      throw new IllegalArgumentException("prior coefficients must be finite and >= 0: " + Arrays.toString(prior));
    }
    if (!(ridge > 0) || Double.isInfinite(ridge)) {
      throw new IllegalArgumentException("ridge must be > 0, got " + ridge);
    }
    if (!(forgetting > 0 && forgetting <= 1)) {
      throw new IllegalArgumentException("forgetting factor must be in (0, 1], got " + forgetting);
    }
    this.dimensions = prior.length;
    this.forgetting = forgetting;
    this.ridge = ridge;
    this.prior = prior.clone();
    this.gram = new double[dimensions][dimensions];
    this.moment = new double[dimensions];
    this.theta = prior.clone();
  }

  /** A model with no observations whose prior is this one's current coefficients. */
  NonNegativeLeastSquares fresh() {
    return new NonNegativeLeastSquares(theta, ridge, forgetting);
  }

  double predict(double[] x) {
    check(x);
    double y = 0;
    for (int i = 0; i < dimensions; i++) {
      y += theta[i] * x[i];
    }
    return y;
  }

  /** Learns that {@code x} led to {@code y}. Non-finite inputs are ignored. */
  void update(double[] x, double y) {
    check(x);
    if (!Double.isFinite(y) || Arrays.stream(x).anyMatch(v -> !Double.isFinite(v))) {
      return;
    }
    for (int i = 0; i < dimensions; i++) {
      for (int j = 0; j < dimensions; j++) {
        gram[i][j] = forgetting * gram[i][j] + x[i] * x[j];
      }
      moment[i] = forgetting * moment[i] + x[i] * y;
    }
    solve();
    samples++;
  }

  /**
   * Keeps only {@code fraction} of the weight of past observations: after an abrupt change (a server that just got
   * much slower) the next few observations decide the fit instead of being outvoted by history.
   */
  void discountHistory(double fraction) {
    for (int i = 0; i < dimensions; i++) {
      for (int j = 0; j < dimensions; j++) {
        gram[i][j] *= fraction;
      }
      moment[i] *= fraction;
    }
  }

  /** Observations learned so far. */
  long samples() {
    return samples;
  }

  double[] coefficients() {
    return theta.clone();
  }

  /** Projected coordinate descent on ½θᵀ(G + rI)θ − (m + r·prior)ᵀθ over θ ≥ 0. */
  private void solve() {
    for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
      double change = 0;
      double scale = 0;
      for (int i = 0; i < dimensions; i++) {
        double residual = moment[i] + ridge * prior[i];
        for (int j = 0; j < dimensions; j++) {
          if (j != i) {
            residual -= gram[i][j] * theta[j];
          }
        }
        double next = Math.max(0, residual / (gram[i][i] + ridge));
        change = Math.max(change, Math.abs(next - theta[i]));
        scale = Math.max(scale, Math.abs(next));
        theta[i] = next;
      }
      if (change <= TOLERANCE * Math.max(1, scale)) {
        return;
      }
    }
  }

  private void check(double[] x) {
    if (x.length != dimensions) {
      throw new IllegalArgumentException("expected " + dimensions + " features, got " + x.length);
    }
  }
}
