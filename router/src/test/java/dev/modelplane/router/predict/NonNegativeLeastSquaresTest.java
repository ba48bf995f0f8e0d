package dev.modelplane.router.predict;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class NonNegativeLeastSquaresTest {
  @Test
  void learnsAKnownLinearFunctionThroughNoise() {
    NonNegativeLeastSquares m = new NonNegativeLeastSquares(new double[3], 0.01, 1.0);
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
    NonNegativeLeastSquares m = new NonNegativeLeastSquares(new double[2], 0.01, 0.98);
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
  void correlatedFeaturesGetTheBestFitThatNeverPredictsLessForMoreWork() {
    // b rises with a, which does the work; the data make b look like it helps: y = 10 + 7a − 2b. Unconstrained,
    // b gets −2 and a lot of b predicts negative latency; clipped afterwards, a alone overshoots.
    NonNegativeLeastSquares m = new NonNegativeLeastSquares(new double[3], 0.01, 0.995);
    SplittableRandom r = new SplittableRandom(9);
    double worst = 0;
    for (int i = 0; i < 1000; i++) {
      double a = r.nextDouble(0, 10);
      double b = a + r.nextDouble(0, 1);
      m.update(new double[] {1, a, b}, 10 + 7 * a - 2 * b);
    }
    for (int i = 0; i < 200; i++) {
      double a = r.nextDouble(0, 10);
      double b = a + r.nextDouble(0, 1);
      worst = Math.max(worst, Math.abs(m.predict(new double[] {1, a, b}) - (10 + 7 * a - 2 * b)));
    }
    assertThat(Arrays.stream(m.coefficients()).allMatch(c -> c >= 0)).isTrue();
    assertThat(worst).as("largest error on data like the training data").isLessThan(1.5);
    assertThat(m.predict(new double[] {1, 5, 50})).isGreaterThanOrEqualTo(m.predict(new double[] {1, 5, 5}));
  }

  @Test
  void aDirectionTheDataNeverExcitesKeepsItsPrior() {
    NonNegativeLeastSquares m = new NonNegativeLeastSquares(new double[] {0, 7}, 0.01, 0.9);
    for (int i = 0; i < 5000; i++) {
      m.update(new double[] {1, 0}, 2);
    }
    assertThat(m.coefficients()[0]).isCloseTo(2, within(0.01));
    assertThat(m.coefficients()[1]).isCloseTo(7, within(1e-9));
  }

  @Test
  void droppingHistoryLetsTheNextObservationsDecide() {
    NonNegativeLeastSquares m = new NonNegativeLeastSquares(new double[] {1}, 0.01, 1);
    for (int i = 0; i < 1000; i++) {
      m.update(new double[] {1}, 10);
    }
    m.discountHistory(0);
    m.update(new double[] {1}, 100);
    assertThat(m.predict(new double[] {1})).isCloseTo(100, within(1.0));
    NonNegativeLeastSquares fresh = m.fresh();
    assertThat(fresh.samples()).isZero();
    assertThat(fresh.predict(new double[] {1})).isEqualTo(m.predict(new double[] {1}));
  }

  @Test
  void nonFiniteObservationsAreIgnored() {
    NonNegativeLeastSquares m = new NonNegativeLeastSquares(new double[] {1}, 1, 1);
    m.update(new double[] {1}, Double.NaN);
    m.update(new double[] {Double.POSITIVE_INFINITY}, 1);
    assertThat(m.samples()).isZero();
    assertThat(m.coefficients()).containsExactly(1.0);
  }

  @Test
  void invalidSettingsAreRefused() {
    assertThatThrownBy(() -> new NonNegativeLeastSquares(new double[1], 1, 1.5))
        .hasMessage("forgetting factor must be in (0, 1], got 1.5");
    assertThatThrownBy(() -> new NonNegativeLeastSquares(new double[1], 0, 1)).hasMessage("ridge must be > 0, got 0.0");
    assertThatThrownBy(() -> new NonNegativeLeastSquares(new double[0], 1, 1))
        .hasMessage("a model needs at least one feature");
    assertThatThrownBy(() -> new NonNegativeLeastSquares(new double[] {1, -1}, 1, 1))
        .hasMessage("prior coefficients must be finite and >= 0: [1.0, -1.0]");
    assertThatThrownBy(() -> new NonNegativeLeastSquares(new double[2], 1, 1).predict(new double[3]))
        .hasMessage("expected 2 features, got 3");
  }
}
