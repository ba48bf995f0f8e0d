package dev.modelplane.router.scheduling;

import dev.modelplane.router.TestEndpoints;
import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.prefix.PrefixCacheScorer;
import dev.modelplane.router.scheduling.plugins.KvCacheUtilizationScorer;
import dev.modelplane.router.scheduling.plugins.LoraAffinityScorer;
import dev.modelplane.router.scheduling.plugins.QueueScorer;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

import static dev.modelplane.router.TestEndpoints.candidates;
import static dev.modelplane.router.TestEndpoints.completion;
import static dev.modelplane.router.TestEndpoints.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ScorersTest {
  private static double[] score(Scorer scorer, InferenceRequest request, List<Candidate> candidates) {
    double[] out = new double[candidates.size()];
    scorer.score(new CycleState(), request, candidates, out);
    return out;
  }

  @Test
  void queueScorerIsMinMaxNormalised() {
    double[] s = score(QueueScorer.waiting("q"), completion("m", "p"), candidates(0, 5, 10));
    assertThat(s).containsExactly(1.0, 0.5, 0.0);
  }

  @Test
  void queueScorerGivesAllOnesWhenQueuesAreEqual() {
    assertThat(score(QueueScorer.waiting("q"), completion("m", "p"), candidates(3, 3, 3))).containsExactly(1, 1, 1);
    assertThat(score(QueueScorer.waiting("q"), completion("m", "p"), candidates(7))).containsExactly(1.0);
  }

  @Test
  void queueScorerCountsDecisionsTheLastScrapeCannotShow() {
    List<Candidate> c = candidates(2, 2, 2);
    c.get(0).state().picked();
    c.get(0).state().picked();
    c.get(1).state().picked();
    // queues as the scorer sees them: 4, 3, 2
    assertThat(score(QueueScorer.waiting("q"), completion("m", "p"), c)).containsExactly(0.0, 0.5, 1.0);
    c.get(0).state().updateMetrics(MetricsSnapshot.of(2, 0, 0)); // a new scrape of the first: its picks are in it
    List<Candidate> next = c.stream().map(x -> new Candidate(x.state())).toList();
    assertThat(score(QueueScorer.waiting("q"), completion("m", "p"), next)).containsExactly(1.0, 0.0, 1.0);
    assertThat(c.get(0).state().unscrapedRequests()).isZero();
  }

  @Test
  void runningRequestsScorerUsesRunningCount() {
    List<Candidate> c = List.of(
        new Candidate(state("a", MetricsSnapshot.of(0, 0, 0).withRunning(2))),
        new Candidate(state("b", MetricsSnapshot.of(9, 0, 0).withRunning(6))),
        new Candidate(state("c", MetricsSnapshot.of(0, 0, 0).withRunning(4))));
    assertThat(score(QueueScorer.running("r"), completion("m", "p"), c)).containsExactly(1.0, 0.0, 0.5);
    assertThat(QueueScorer.running("r").type()).isEqualTo("running-requests-size-scorer");
  }

  @Test
  void kvCacheScorerIsOneMinusUsage() {
    List<Candidate> c = List.of(TestEndpoints.candidate("a", 0, 0.0), TestEndpoints.candidate("b", 0, 0.25),
        TestEndpoints.candidate("c", 0, 1.0));
    double[] s = score(new KvCacheUtilizationScorer("kv"), completion("m", "p"), c);
    assertThat(s[0]).isEqualTo(1.0);
    assertThat(s[1]).isCloseTo(0.75, within(1e-12));
    assertThat(s[2]).isEqualTo(0.0);
  }

  @Test
  void loraAffinityFollowsGieTiers() {
    MetricsSnapshot base = MetricsSnapshot.of(0, 0, 0);
    List<Candidate> c = List.of(
        new Candidate(state("active", base.withLora(Set.of("sql-lora"), Set.of(), 2))),
        new Candidate(state("free-slot", base.withLora(Set.of("other"), Set.of(), 2))),
        new Candidate(state("waiting", base.withLora(Set.of("x"), Set.of("sql-lora"), 2))),
        new Candidate(state("full", base.withLora(Set.of("x", "y"), Set.of(), 2))));
    double[] s = score(new LoraAffinityScorer("l"), completion("sql-lora", "p"), c);
    assertThat(s).containsExactly(1.0, 0.8, 0.6, 0.0);
  }

  @Test
  void prefixScorerIsMatchedOverTotalBlocks() {
    List<Candidate> c = candidates(0, 0, 0);
    c.get(0).prefixMatch(new PrefixMatch(3, 4, 16));
    c.get(1).prefixMatch(new PrefixMatch(0, 0, 16));
    // c[2] has no match info at all: 0
    assertThat(score(new PrefixCacheScorer("p"), completion("m", "p"), c)).containsExactly(0.75, 0.0, 0.0);
  }
}
