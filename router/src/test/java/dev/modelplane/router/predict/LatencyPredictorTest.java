package dev.modelplane.router.predict;

import dev.modelplane.router.pool.EndpointId;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class LatencyPredictorTest {
  private static final EndpointId A = new EndpointId("ns", "a");
  private static final EndpointId B = new EndpointId("ns", "b");

  /** A server whose prefill costs 15 ms + 80 ms per 1k tokens, stretched 4 % per running request. */
  private static double ttft(LatencyFeatures f, double slowdown) {
    return slowdown * ((15 + 80 * f.uncachedTokens() / 1000.0) * (1 + 0.04 * f.inFlight())
        + 30 * f.pendingPrefillTokens() / 1000.0 + 40 * f.waiting());
  }

  private static double tpot(LatencyFeatures f, double slowdown) {
    return slowdown * (8 + 0.25 * (f.inFlight() + 1) + 4 * f.kvUsage());
  }

  private static LatencyFeatures random(SplittableRandom r) {
    int prompt = r.nextInt(10, 8000);
    return new LatencyFeatures(prompt, r.nextInt(0, prompt), r.nextInt(0, 20_000), r.nextInt(0, 32),
        r.nextInt(0, 4), r.nextDouble());
  }

  @Test
  void learnsAKnownLatencyFunction() {
    LatencyPredictor p = new LatencyPredictor(LatencyPredictor.Settings.DEFAULT);
    SplittableRandom r = new SplittableRandom(1);
    for (int i = 0; i < 400; i++) {
      LatencyFeatures f = random(r);
      double noise = 1 + r.nextDouble(-0.05, 0.05);
      p.observeTtft(i % 2 == 0 ? A : B, f, ttft(f, 1) * noise);
      p.observeTpot(i % 2 == 0 ? A : B, f, tpot(f, 1) * noise);
    }
    double ttftError = 0;
    double tpotError = 0;
    for (int i = 0; i < 200; i++) {
      LatencyFeatures f = random(r);
      LatencyPredictor.Prediction got = p.predict(A, f);
      ttftError += Math.abs(got.ttftMs() - ttft(f, 1)) / ttft(f, 1);
      tpotError += Math.abs(got.tpotMs() - tpot(f, 1)) / tpot(f, 1);
    }
    assertThat(ttftError / 200).as("mean relative TTFT error").isLessThan(0.03);
    assertThat(tpotError / 200).as("mean relative TPOT error").isLessThan(0.03);
    assertThat(p.observations()).isEqualTo(400);
  }

  @Test
  void anEndpointThatIsSlowerGetsAHigherSpeedFactor() {
    LatencyPredictor p = new LatencyPredictor(LatencyPredictor.Settings.DEFAULT);
    SplittableRandom r = new SplittableRandom(2);
    for (int i = 0; i < 600; i++) {
      LatencyFeatures f = random(r);
      EndpointId id = i % 2 == 0 ? A : B;
      double slowdown = id == B ? 3 : 1;
      p.observeTtft(id, f, ttft(f, slowdown));
      p.observeTpot(id, f, tpot(f, slowdown));
    }
    LatencyFeatures f = new LatencyFeatures(2000, 2000, 0, 4, 0, 0.2);
    assertThat(p.predict(B, f).ttftMs() / p.predict(A, f).ttftMs()).isCloseTo(3, within(0.15));
    assertThat(p.predict(B, f).tpotMs() / p.predict(A, f).tpotMs()).isCloseTo(3, within(0.15));
    assertThat(p.ttftFactor(B) / p.ttftFactor(A)).isCloseTo(3, within(0.15));
    // An endpoint with no history of its own is answered by the shared model: between the two.
    double unseen = p.predict(new EndpointId("ns", "c"), f).ttftMs();
    assertThat(unseen).isBetween(p.predict(A, f).ttftMs(), p.predict(B, f).ttftMs());
  }

  @Test
  void anEndpointThatSuddenlyGetsMuchSlowerIsCaughtUpWithinTenResponses() {
    LatencyPredictor p = new LatencyPredictor(LatencyPredictor.Settings.DEFAULT);
    SplittableRandom r = new SplittableRandom(4);
    for (int i = 0; i < 300; i++) {
      LatencyFeatures f = random(r);
      p.observeTtft(A, f, ttft(f, 1));
    }
    for (int i = 0; i < 10; i++) {
      LatencyFeatures f = random(r);
      p.observeTtft(A, f, ttft(f, 5));
    }
    LatencyFeatures f = new LatencyFeatures(1000, 1000, 0, 2, 0, 0.1);
    assertThat(p.predict(A, f).ttftMs() / ttft(f, 5)).as("predicted / true after ten slow responses")
        .isBetween(0.7, 1.3);
  }

  @Test
  void beforeAnyObservationThePriorOrdersEndpointsByWorkAhead() {
    LatencyPredictor p = new LatencyPredictor(LatencyPredictor.Settings.DEFAULT);
    double cached = p.predict(A, new LatencyFeatures(4000, 0, 0, 2, 0, 0.1)).ttftMs();
    double uncached = p.predict(A, new LatencyFeatures(4000, 4000, 0, 2, 0, 0.1)).ttftMs();
    double backlog = p.predict(A, new LatencyFeatures(4000, 0, 8000, 2, 0, 0.1)).ttftMs();
    assertThat(cached).isLessThan(uncached).isLessThan(backlog);
  }

  @Test
  void thePrefillBacklogIsCountedPerEndpoint() {
    LatencyPredictor p = new LatencyPredictor(LatencyPredictor.Settings.DEFAULT);
    p.prefillStarted(A, 500);
    p.prefillStarted(A, 300);
    p.prefillStarted(B, 100);
    p.prefillEnded(A, 500);
    assertThat(p.pendingPrefillTokens(A)).isEqualTo(300);
    assertThat(p.pendingPrefillTokens(B)).isEqualTo(100);
    assertThat(p.pendingPrefillTokens(new EndpointId("ns", "none"))).isZero();
  }

  @Test
  void invalidSettingsNameTheParameter() {
    assertThatThrownBy(() -> new LatencyPredictor.Settings(1, 0, 1))
        .hasMessage("forgettingFactor must be in (0, 1], got 0.0");
    assertThatThrownBy(() -> new LatencyPredictor.Settings(1, 0.9, 0))
        .hasMessage("speedFactorWeight must be in (0, 1], got 0.0");
    assertThatThrownBy(() -> new LatencyPredictor.Settings(0, 0.9, 0.1)).hasMessage("ridge must be > 0, got 0.0");
  }
}
