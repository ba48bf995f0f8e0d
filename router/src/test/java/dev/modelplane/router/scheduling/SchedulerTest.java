package dev.modelplane.router.scheduling;

import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.scheduling.plugins.KvCacheUtilizationScorer;
import dev.modelplane.router.scheduling.plugins.LabelFilter;
import dev.modelplane.router.scheduling.plugins.MaxScorePicker;
import dev.modelplane.router.scheduling.plugins.QueueScorer;
import dev.modelplane.router.scheduling.plugins.SingleProfileHandler;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

import static dev.modelplane.router.TestEndpoints.completion;
import static dev.modelplane.router.TestEndpoints.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchedulerTest {
  private static final MaxScorePicker PICKER = new MaxScorePicker("max", 1, () -> new SplittableRandom(1));

  @Test
  void weightedSumPicksTheBestEndpoint() {
    // queue scores: a=1, b=0, c=0.5; kv scores: a=0.1, b=1, c=0.9. With weights 1 and 2: a=1.2, b=2.0, c=2.3.
    List<Candidate> c = List.of(
        new Candidate(state("a", MetricsSnapshot.of(0, 0.9, 0))),
        new Candidate(state("b", MetricsSnapshot.of(10, 0.0, 0))),
        new Candidate(state("c", MetricsSnapshot.of(5, 0.1, 0))));
    SchedulerProfile profile = new SchedulerProfile("default", List.of(),
        List.of(new WeightedScorer(QueueScorer.waiting("q"), 1), new WeightedScorer(new KvCacheUtilizationScorer("kv"), 2)),
        PICKER);
    Scheduler scheduler = new Scheduler(new SingleProfileHandler("s"), Map.of("default", profile), null);
    SchedulingResult r = scheduler.scheduleUnchecked(completion("m", "hi"), c);
    assertThat(r.primaryProfileName()).isEqualTo("default");
    assertThat(r.primary().targets()).containsExactly(c.get(2));
  }

  @Test
  void scoresAreClampedToUnitRange() {
    Scorer wild = new Scorer() {
      public String type() {
        return "wild";
      }

      public String name() {
        return "wild";
      }

      public ScorerCategory category() {
        return ScorerCategory.BALANCE;
      }

      public void score(CycleState s, InferenceRequest r, List<Candidate> c, double[] out) {
        out[0] = 100;
        out[1] = -50;
      }
    };
    List<Candidate> c = List.of(new Candidate(state("a", MetricsSnapshot.of(9, 0.9, 0))),
        new Candidate(state("b", MetricsSnapshot.of(0, 0, 0))));
    // a: 1 (clamped) + queue 0 + kv 0.1*... ; b: 0 (clamped) + queue 1 + kv 1 → b wins only if clamping holds.
    SchedulerProfile profile = new SchedulerProfile("p", List.of(), List.of(new WeightedScorer(wild, 1),
        new WeightedScorer(QueueScorer.waiting("q"), 1), new WeightedScorer(new KvCacheUtilizationScorer("kv"), 1)),
        PICKER);
    SchedulingResult r = new Scheduler(new SingleProfileHandler("s"), Map.of("p", profile), null)
        .scheduleUnchecked(completion("m", "x"), c);
    assertThat(r.primary().targets()).containsExactly(c.get(1));
  }

  @Test
  void filterEliminatingEverythingFailsTheProfile() {
    List<Candidate> c = List.of(new Candidate(state("p", MetricsSnapshot.of(0, 0, 0), Map.of("llm-d.ai/role", "prefill"))));
    SchedulerProfile profile = new SchedulerProfile("default", List.of(LabelFilter.decode("decode")), List.of(), PICKER);
    Scheduler scheduler = new Scheduler(new SingleProfileHandler("s"), Map.of("default", profile), null);
    assertThatThrownBy(() -> scheduler.schedule(completion("m", "x"), c))
        .isInstanceOf(SchedulingException.class).hasMessageContaining("failed to run scheduler profile 'default'");
  }

  @Test
  void roleFiltersFollowLlmdRoles() {
    List<Candidate> c = List.of(
        new Candidate(state("none", MetricsSnapshot.NONE)),
        new Candidate(state("decode", MetricsSnapshot.NONE, Map.of("llm-d.ai/role", "decode"))),
        new Candidate(state("prefill", MetricsSnapshot.NONE, Map.of("llm-d.ai/role", "prefill"))),
        new Candidate(state("both", MetricsSnapshot.NONE, Map.of("llm-d.ai/role", "both"))));
    assertThat(LabelFilter.decode("d").filter(new CycleState(), completion("m", "x"), c))
        .extracting(Candidate::toString).map(s -> s.split("@")[0])
        .containsExactly("ns/none", "ns/decode", "ns/both");
    assertThat(LabelFilter.prefill("p").filter(new CycleState(), completion("m", "x"), c))
        .extracting(Candidate::toString).map(s -> s.split("@")[0])
        .containsExactly("ns/prefill", "ns/both");
  }
}
