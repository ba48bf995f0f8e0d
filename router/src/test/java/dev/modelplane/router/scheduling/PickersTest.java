package dev.modelplane.router.scheduling;

import static dev.modelplane.router.TestEndpoints.candidates;
import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.router.scheduling.plugins.MaxScorePicker;
import dev.modelplane.router.scheduling.plugins.RandomPicker;
import dev.modelplane.router.scheduling.plugins.WeightedRandomPicker;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PickersTest {
  private static final SplittableRandom SEEDED = new SplittableRandom(42);

  private static List<ScoredCandidate> scored(List<Candidate> c, double... scores) {
    List<ScoredCandidate> out = new ArrayList<>();
    for (int i = 0; i < scores.length; i++) {
      out.add(new ScoredCandidate(c.get(i), scores[i]));
    }
    return out;
  }

  @Test
  void maxScorePicksTheHighest() {
    List<Candidate> c = candidates(0, 0, 0);
    ProfileRunResult r = new MaxScorePicker("m", 1, () -> SEEDED).pick(new CycleState(), scored(c, 1.0, 4.5, 2.0));
    assertThat(r.targets()).containsExactly(c.get(1));
  }

  @Test
  void maxScoreKeepsTopNInScoreOrder() {
    List<Candidate> c = candidates(0, 0, 0, 0);
    ProfileRunResult r = new MaxScorePicker("m", 3, () -> SEEDED).pick(new CycleState(), scored(c, 1, 4, 2, 3));
    assertThat(r.targets()).containsExactly(c.get(1), c.get(3), c.get(2));
  }

  @Test
  void maxScoreBreaksTiesUniformly() {
    List<Candidate> c = candidates(0, 0, 0);
    Map<Candidate, Integer> counts = new HashMap<>();
    MaxScorePicker picker = new MaxScorePicker("m", 1, () -> SEEDED);
    for (int i = 0; i < 3000; i++) {
      counts.merge(picker.pick(new CycleState(), scored(c, 5, 5, 1)).targets().get(0), 1, Integer::sum);
    }
    assertThat(counts).doesNotContainKey(c.get(2));
    assertThat(counts.get(c.get(0))).isBetween(1300, 1700);
  }

  @Test
  void randomPickerIgnoresScores() {
    List<Candidate> c = candidates(0, 0);
    RandomPicker picker = new RandomPicker("r", 1, () -> SEEDED);
    Map<Candidate, Integer> counts = new HashMap<>();
    for (int i = 0; i < 2000; i++) {
      counts.merge(picker.pick(new CycleState(), scored(c, 100, 0)).targets().get(0), 1, Integer::sum);
    }
    assertThat(counts.get(c.get(1))).isBetween(850, 1150);
  }

  @Test
  void weightedRandomFollowsScoreProportions() {
    List<Candidate> c = candidates(0, 0, 0);
    WeightedRandomPicker picker = new WeightedRandomPicker("w", 1, () -> SEEDED);
    Map<Candidate, Integer> counts = new HashMap<>();
    int n = 6000;
    for (int i = 0; i < n; i++) {
      counts.merge(picker.pick(new CycleState(), scored(c, 3, 1, 0)).targets().get(0), 1, Integer::sum);
    }
    // A-Res with weights 3:1 picks the first with probability 3/4; a zero score is never picked.
    assertThat(counts).doesNotContainKey(c.get(2));
    assertThat(counts.get(c.get(0)) / (double) n).isBetween(0.72, 0.78);
  }

  @Test
  void weightedRandomFallsBackToUniformWhenAllScoresAreZero() {
    List<Candidate> c = candidates(0, 0);
    WeightedRandomPicker picker = new WeightedRandomPicker("w", 2, () -> SEEDED);
    assertThat(picker.pick(new CycleState(), scored(c, 0, 0)).targets()).containsExactlyInAnyOrder(c.get(0), c.get(1));
  }
}
