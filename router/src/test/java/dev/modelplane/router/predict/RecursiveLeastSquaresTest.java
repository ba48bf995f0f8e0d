package dev.modelplane.router.predict;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class RecursiveLeastSquaresTest {
  @Test
  void learnsAKnownLinearFunctionThroughNoise() {
    RecursiveLeastSquares m = new RecursiveLeastSquares(new double[3], 1e4, 1.0);
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < 2000; i++) {
      double a = r.nextDouble(0, 10);
      double b = r.nextDouble(0, 5);
      m.update(new double[] {1, a, b}, 3 + 2 * a + b + r.nextDouble(-0.5, 0.5));
    }
    assertThat(m.coefficients()[0]).isCloseTo(3, within(0.1));
    assertThat(m.coefficients()[1]).isCloseTo(2, within(0.02));
    assertThat(m.coefficients()[2]).isCloseTo(1, within(0.03));
    assertThat(m.samples()).isEqualTo(2000);
  }

  @Test
  void forgettingFollowsAFunctionThatChanges() {
    RecursiveLeastSquares m = new RecursiveLeastSquares(new double[2], 1e4, 0.98);
    SplittableRandom r = new SplittableRandom(3);
    for (int i = 0; i < 500; i++) {
      double a = r.nextDouble(0, 10);
      m.update(new double[] {1, a}, 5 + a);
    }
    for (int i = 0; i < 300; i++) {
      double a = r.nextDouble(0, 10);
      m.update(new double[] {1, a}, 4 * (5 + a));
    }
    assertThat(m.predict(new double[] {1, 5})).isCloseTo(40, within(0.5));
  }

  @Test
  void aDirectionTheDataNeverExcitesKeepsItsPriorAndNothingBlowsUp() {
    RecursiveLeastSquares m = new RecursiveLeastSquares(new double[] {0, 7}, 1e4, 0.9);
    for (int i = 0; i < 5000; i++) {
      m.update(new double[] {1, 0}, 2);
    }
    assertThat(m.coefficients()[0]).isCloseTo(2, within(1e-6));
    assertThat(m.coefficients()[1]).isEqualTo(7);
    m.update(new double[] {1, 1}, 10);
    assertThat(java.util.Arrays.stream(m.coefficients()).allMatch(Double::isFinite)).isTrue();
  }

  @Test
  void coefficientsStayNonNegativeSoMoreWorkNeverPredictsLess() {
    // Data where the second feature seems to help (it rises with the first, which does all the work, and the
    // noise is on its side): least squares would give it a negative weight and predict less for more of it.
    RecursiveLeastSquares m = new RecursiveLeastSquares(new double[3], 1e4, 0.995);
    SplittableRandom r = new SplittableRandom(9);
    for (int i = 0; i < 1000; i++) {
      double a = r.nextDouble(0, 10);
      double b = a + r.nextDouble(0, 1);
      m.update(new double[] {1, a, b}, 10 + 5 * a - 2 * (b - a));
    }
    assertThat(java.util.Arrays.stream(m.coefficients()).allMatch(c -> c >= 0)).isTrue();
    assertThat(m.predict(new double[] {1, 5, 50})).isGreaterThanOrEqualTo(m.predict(new double[] {1, 5, 5}));
    assertThatThrownBy(() -> new RecursiveLeastSquares(new double[] {1, -1}, 1, 1))
        .hasMessage("prior coefficients must be >= 0: [1.0, -1.0]");
  }

  @Test
  void nonFiniteObservationsAreIgnored() {
    RecursiveLeastSquares m = new RecursiveLeastSquares(new double[] {1}, 1, 1);
    m.update(new double[] {1}, Double.NaN);
    m.update(new double[] {Double.POSITIVE_INFINITY}, 1);
    assertThat(m.samples()).isZero();
    assertThat(m.coefficients()).containsExactly(1.0);
  }

  @Test
  void invalidSettingsAreRefused() {
    assertThatThrownBy(() -> new RecursiveLeastSquares(new double[1], 1, 1.5))
        .hasMessage("forgetting factor must be in (0, 1], got 1.5");
    assertThatThrownBy(() -> new RecursiveLeastSquares(new double[1], 0, 1)).hasMessage("delta must be > 0, got 0.0");
    assertThatThrownBy(() -> new RecursiveLeastSquares(new double[0], 1, 1))
        .hasMessage("a model needs at least one feature");
    assertThatThrownBy(() -> new RecursiveLeastSquares(new double[2], 1, 1).predict(new double[3]))
        .hasMessage("expected 2 features, got 3");
  }
}
