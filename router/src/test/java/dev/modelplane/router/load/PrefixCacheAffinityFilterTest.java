package dev.modelplane.router.load;

import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.PrefixMatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

import static dev.modelplane.router.load.InFlightLoadProducerTest.candidate;
import static dev.modelplane.router.load.InFlightLoadProducerTest.picked;
import static dev.modelplane.router.load.InFlightLoadProducerTest.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PrefixCacheAffinityFilterTest {
  private final InFlightLoadProducer producer = new InFlightLoadProducer("p", false, 1.5, -1);
  private final InferenceRequest request = request("r", 4 * 1000, null);

  private PrefixCacheAffinityFilter filter(PrefixCacheAffinityFilter.Settings settings, RandomGenerator random) {
    return new PrefixCacheAffinityFilter("f", settings, producer, () -> random);
  }

  private PrefixCacheAffinityFilter filter(PrefixCacheAffinityFilter.Settings settings) {
    return filter(settings, new Random(1));
  }

  private static PrefixCacheAffinityFilter.Settings settings(double threshold, double exploration,
      double penaltyMs, double peak) {
    return new PrefixCacheAffinityFilter.Settings(threshold, exploration, penaltyMs, peak);
  }

  /** Candidates matching {@code matched} of 10 blocks each. */
  private static List<Candidate> matching(int... matched) {
    List<Candidate> out = new ArrayList<>();
    for (int i = 0; i < matched.length; i++) {
      out.add(candidate("pod-" + i, new PrefixMatch(matched[i], 10, 16)));
    }
    return out;
  }

  /** Puts {@code tokens} uncached prompt tokens in flight on {@code c}. */
  private void load(Candidate c, int tokens) {
    producer.preRequest(request("load-" + c + tokens, 4 * tokens, null), picked(candidate(c.endpoint().id().name(),
        null)));
  }

  @Test
  void keepsTheEndpointsMatchingAtLeastTheThreshold() {
    List<Candidate> c = matching(10, 8, 7, 0);
    assertThat(filter(PrefixCacheAffinityFilter.Settings.DEFAULT).filter(new CycleState(), request, c))
        .containsExactly(c.get(0), c.get(1));
    assertThat(filter(settings(0.7, 0, 0, 1)).filter(new CycleState(), request, c))
        .containsExactly(c.get(0), c.get(1), c.get(2));
    assertThat(filter(settings(1.0, 0, 0, 1)).filter(new CycleState(), request, c)).containsExactly(c.get(0));
  }

  @Test
  void keepsEveryoneWhenNobodyIsSticky() {
    List<Candidate> c = matching(7, 0, 1);
    assertThat(filter(PrefixCacheAffinityFilter.Settings.DEFAULT).filter(new CycleState(), request, c))
        .isSameAs(c);
    List<Candidate> unmatched = List.of(candidate("a", null), candidate("b", PrefixMatch.NONE));
    assertThat(filter(PrefixCacheAffinityFilter.Settings.DEFAULT).filter(new CycleState(), request, unmatched))
        .as("no producer filled a match, or the prompt had no whole block").isSameAs(unmatched);
  }

  @Test
  void aSingleCandidateOrANonPositiveThresholdIsLeftAlone() {
    List<Candidate> one = matching(0);
    assertThat(filter(PrefixCacheAffinityFilter.Settings.DEFAULT).filter(new CycleState(), request, one))
        .isSameAs(one);
    List<Candidate> c = matching(10, 0);
    assertThat(filter(settings(0, 0, 0, 1)).filter(new CycleState(), request, c)).isSameAs(c);
    assertThat(filter(settings(-1, 0, 0, 1)).filter(new CycleState(), request, c)).isSameAs(c);
  }

  @Test
  void breaksStickinessWhenTheStickyEndpointsAreSlowerByMoreThanThePenalty() {
    // 1000 tokens/s: each in-flight token is a millisecond of estimated time to first token.
    PrefixCacheAffinityFilter f = filter(settings(0.8, 0, 500, 1000));
    List<Candidate> c = matching(10, 9, 0, 0);
    load(c.get(0), 800);
    load(c.get(1), 700);
    load(c.get(2), 300);
    load(c.get(3), 200);
    // Best sticky 700 ms, best other 200 ms: 500 ms apart, not more than the penalty.
    assertThat(f.filter(new CycleState(), request, c)).containsExactly(c.get(0), c.get(1));
    load(c.get(1), 1);
    assertThat(f.filter(new CycleState(), request, c)).as("701 - 200 > 500").isSameAs(c);
  }

  @Test
  void theDefaultGateHoldsUntilEighteenSecondsOfPrefillAtThePeakThroughput() {
    PrefixCacheAffinityFilter f = filter(PrefixCacheAffinityFilter.Settings.DEFAULT);
    List<Candidate> c = matching(10, 0);
    load(c.get(0), 286_704); // 18.000 s at 15928 tokens/s
    assertThat(f.filter(new CycleState(), request, c)).containsExactly(c.get(0));
    load(c.get(0), 16);
    assertThat(f.filter(new CycleState(), request, c)).isSameAs(c);
  }

  @Test
  void aZeroPenaltyAlwaysSticksAndSoDoesAnAllStickyPool() {
    List<Candidate> c = matching(10, 0);
    load(c.get(0), 1_000_000);
    assertThat(new PrefixCacheAffinityFilter("f", settings(0.8, 0, 0, 0), null, () -> new Random(1))
        .filter(new CycleState(), request, c)).containsExactly(c.get(0));
    List<Candidate> allSticky = matching(10, 9);
    load(allSticky.get(0), 1_000_000);
    load(allSticky.get(1), 1_000_000);
    assertThat(filter(PrefixCacheAffinityFilter.Settings.DEFAULT).filter(new CycleState(), request, allSticky))
        .containsExactly(allSticky.get(0), allSticky.get(1));
  }

  @Test
  void exploresWithTheConfiguredProbability() {
    PrefixCacheAffinityFilter f = filter(settings(0.8, 0.25, 0, 1), new Random(42));
    List<Candidate> c = matching(10, 0, 0, 0);
    Random same = new Random(42);
    int explored = 0;
    for (int i = 0; i < 4000; i++) {
      boolean expected = same.nextDouble() < 0.25;
      List<Candidate> kept = f.filter(new CycleState(), request, c);
      assertThat(kept.size() == c.size()).isEqualTo(expected);
      explored += expected ? 1 : 0;
    }
    assertThat(explored).isBetween(900, 1100);
    PrefixCacheAffinityFilter never = filter(settings(0.8, 0, 0, 1), new Random(42));
    for (int i = 0; i < 1000; i++) {
      assertThat(never.filter(new CycleState(), request, c)).containsExactly(c.get(0));
    }
    PrefixCacheAffinityFilter always = filter(settings(0.8, 1, 0, 1), new Random(42));
    assertThat(always.filter(new CycleState(), request, c)).isSameAs(c);
  }

  @Test
  void settingsAreValidatedLikeLlmD() {
    assertThatThrownBy(() -> settings(1.01, 0, 0, 1)).hasMessage("affinityThreshold must be <= 1.0, got 1.01");
    assertThatThrownBy(() -> settings(0.8, -0.1, 0, 1))
        .hasMessage("explorationProbability must be in [0, 1], got -0.1");
    assertThatThrownBy(() -> settings(0.8, 1.5, 0, 1)).hasMessage("explorationProbability must be in [0, 1], got 1.5");
    assertThatThrownBy(() -> settings(0.8, 0, -1, 1)).hasMessage("maxTTFTPenaltyMs must be >= 0, got -1.0");
    assertThatThrownBy(() -> settings(0.8, 0, 0, -1)).hasMessage("peakPrefillThroughput must be >= 0, got -1.0");
    assertThatThrownBy(() -> settings(0.8, 0, 100, 0))
        .hasMessage("peakPrefillThroughput must be > 0 when ttftSource is prefillThroughput");
    assertThatThrownBy(() -> settings(Double.NaN, 0, 0, 1)).hasMessageContaining("affinityThreshold");
    assertThat(settings(0.8, 0, 0, 0).peakPrefillThroughput()).as("no gate, no throughput needed").isZero();
  }
}
