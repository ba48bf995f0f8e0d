package dev.modelplane.planner.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.planner.fleet.FleetResult;
import dev.modelplane.planner.fleet.LatencySummary;
import dev.modelplane.planner.fleet.RouterProfile;
import dev.modelplane.simulator.physics.ModelCatalog;
import dev.modelplane.simulator.physics.ModelGeometry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanSearchTest {
  static final ModelGeometry LLAMA_8B = ModelCatalog.geometry("llama-3.1-8b");
  static final List<Slo> SLOS = List.of(Slo.parse("ttft-p90=200ms"));
  static final FakeWorkload SEVEN_PER_SECOND = new FakeWorkload(7);

  static SearchSpace space(List<String> gpus) {
    return new SearchSpace(LLAMA_8B, gpus, List.of(), List.of(), 64);
  }

  @Test
  void pricedTheCheapestWinsEvenWithMoreGpus() {
    CapacityEvaluator evaluator = new CapacityEvaluator();
    PlanSearch search = new PlanSearch(evaluator, SLOS, Prices.parse(List.of("h100=4", "a100=1")), 1000, s -> { });
    PlanOutcome outcome = search.search(space(List.of("h100", "a100")), SEVEN_PER_SECOND);

    Plan best = outcome.plans().get(0);
    // a100 TP=2 x3: 6 GPUs at $1 = $6/h; the fewest GPUs (h100 TP=1 x3) cost $12/h.
    assertThat(best.candidate()).isEqualTo(new Candidate("a100", 2, 3, RouterProfile.PRECISE));
    assertThat(best.costPerHour()).isEqualTo(6.0);
    assertThat(best.costPerMillionTokens()).isCloseTo(6.0 / (700 * 3600) * 1e6,
        org.assertj.core.data.Offset.offset(1e-9));
    assertThat(outcome.plans().get(1).candidate()).isEqualTo(new Candidate("a100", 2, 3, RouterProfile.DEFAULT));
    assertThat(outcome.plans()).hasSize(2 * 4 * 3);
    assertThat(outcome.priced()).isTrue();
    assertThat(outcome.plans()).extracting(Plan::costPerHour).isSorted();
  }

  @Test
  void unpricedTheFewestGpusWin() {
    PlanSearch search = new PlanSearch(new CapacityEvaluator(), SLOS, Prices.NONE, 1000, s -> { });
    PlanOutcome outcome = search.search(space(List.of("h100", "a100")), SEVEN_PER_SECOND);

    assertThat(outcome.plans().get(0).candidate()).isEqualTo(new Candidate("h100", 1, 3, RouterProfile.PRECISE));
    assertThat(outcome.plans().get(0).costPerHour()).isNull();
    assertThat(outcome.plans().get(0).costPerMillionTokens()).isNull();
    assertThat(outcome.plans()).extracting(Plan::gpus).isSorted();
    // every shape finds its fewest replicas: capacity x replicas must cover 7 req/s
    for (Plan p : outcome.plans()) {
      Candidate c = p.candidate();
      double perReplica = CapacityEvaluator.CAPACITY.get(c.gpu())[Integer.numberOfTrailingZeros(
          c.tensorParallelSize())];
      assertThat(perReplica * c.replicas()).isGreaterThanOrEqualTo(7);
      assertThat(perReplica * (c.replicas() - 1)).isLessThan(7 * (c.profile() == RouterProfile.PRECISE ? 1.0101 : 1));
    }
  }

  @Test
  void growingThenBisectingTakesFewRuns() {
    CapacityEvaluator evaluator = new CapacityEvaluator();
    PlanSearch search = new PlanSearch(evaluator, SLOS, Prices.NONE, 1000, s -> { });
    SearchSpace one = new SearchSpace(LLAMA_8B, List.of("a100"), List.of(1), List.of(RouterProfile.DEFAULT), 64);
    PlanOutcome outcome = search.search(one, new FakeWorkload(37));

    assertThat(outcome.plans()).singleElement().extracting(p -> p.candidate().replicas()).isEqualTo(37);
    // 1, 2, 4, 8, 16, 32, 64, then bisecting 32..64: 48, 40, 36, 38, 37
    assertThat(evaluator.calls).hasSizeLessThanOrEqualTo(12);
    assertThat(evaluator.calls).extracting(Candidate::replicas).doesNotHaveDuplicates();
    assertThat(outcome.simulation().runs()).isEqualTo(evaluator.calls.size());
    assertThat(outcome.simulation().simulatedSeconds()).isEqualTo(60.0 * evaluator.calls.size());
  }

  @Test
  void otherProfilesAndSizesStartFromTheirNeighboursAnswer() {
    CapacityEvaluator evaluator = new CapacityEvaluator();
    PlanSearch search = new PlanSearch(evaluator, SLOS, Prices.NONE, 1000, s -> { });
    SearchSpace sizes = new SearchSpace(LLAMA_8B, List.of("a100"), List.of(1, 2), List.of(), 64);
    PlanOutcome outcome = search.search(sizes, new FakeWorkload(37));

    // TP=1 needs 37 replicas, TP=2 needs 15 (2.5 req/s each), whatever the profile
    assertThat(outcome.plans()).extracting(p -> p.candidate().replicas()).containsOnly(37, 15).hasSize(6);
    List<Candidate> tp1 = evaluator.calls.stream().filter(c -> c.tensorParallelSize() == 1).toList();
    // the first profile searches from 1; the others check 37 and 36 only
    assertThat(tp1).hasSizeLessThanOrEqualTo(12 + 2 + 2);
    assertThat(tp1.subList(tp1.size() - 4, tp1.size())).extracting(Candidate::replicas).containsExactly(37, 36, 37,
        36);
    // TP=2 starts at 19 (37 GPUs' worth), not 1
    assertThat(evaluator.calls.stream().filter(c -> c.tensorParallelSize() == 2).findFirst().orElseThrow()
        .replicas()).isEqualTo(19);
  }

  @Test
  void aShapeMissingAtTheCapTellsTheNextProfileToTryTheCapFirst() {
    CapacityEvaluator evaluator = new CapacityEvaluator();
    PlanSearch search = new PlanSearch(evaluator, SLOS, Prices.NONE, 1000, s -> { });
    SearchSpace small = new SearchSpace(LLAMA_8B, List.of("a100"), List.of(1), List.of(), 4);
    PlanOutcome outcome = search.search(small, SEVEN_PER_SECOND);

    assertThat(outcome.rejected()).hasSize(3);
    // 1, 2, 4 for the first profile; 4 alone for each of the others
    assertThat(evaluator.calls).extracting(Candidate::replicas).containsExactly(1, 2, 4, 4, 4);
  }

  @Test
  void aShapeThatMissesAtTheCapIsRejectedWithWhy() {
    PlanSearch search = new PlanSearch(new CapacityEvaluator(), SLOS, Prices.NONE, 1000, s -> { });
    SearchSpace small = new SearchSpace(LLAMA_8B, List.of("a100"), List.of(1), List.of(RouterProfile.DEFAULT), 4);
    PlanOutcome outcome = search.search(small, SEVEN_PER_SECOND);

    assertThat(outcome.plans()).isEmpty();
    assertThat(outcome.rejected()).singleElement().extracting(Rejection::describe)
        .isEqualTo("a100 TP=1 default: even 4 replicas (--max-replicas) miss ttft-p90=200ms (measured 350.0ms)");
  }

  @Test
  void moreThanOnePercentFailedRejectsAPlan() {
    CapacityEvaluator evaluator = new CapacityEvaluator();
    evaluator.failedPerHundred = 2;
    PlanSearch search = new PlanSearch(evaluator, SLOS, Prices.NONE, 1000, s -> { });
    SearchSpace one = new SearchSpace(LLAMA_8B, List.of("h100"), List.of(1), List.of(RouterProfile.DEFAULT), 8);
    PlanOutcome outcome = search.search(one, SEVEN_PER_SECOND);
    assertThat(outcome.plans()).isEmpty();
    assertThat(outcome.rejected().get(0).reason())
        .isEqualTo("even 8 replicas (--max-replicas) fail 2.0% of requests (at most 1% may fail)");

    evaluator.failedPerHundred = 1;
    assertThat(search.search(one, SEVEN_PER_SECOND).plans()).hasSize(1);
  }

  @Test
  void aRunWithNothingCompletedMeetsNothing() {
    Evaluator nothing = (c, w) -> new FleetResult(LatencySummary.NONE, LatencySummary.NONE, LatencySummary.NONE, 1,
        0, 0, 0, 0, 0, 0, 60, 1);
    PlanSearch search = new PlanSearch(nothing, SLOS, Prices.NONE, 1000, s -> { });
    SearchSpace one = new SearchSpace(LLAMA_8B, List.of("h100"), List.of(1), List.of(RouterProfile.DEFAULT), 2);
    assertThat(search.search(one, SEVEN_PER_SECOND).rejected().get(0).reason())
        .isEqualTo("even 2 replicas (--max-replicas) completes no request");
  }

  @Test
  void theRunCapStopsTheSearchAndSaysSo() {
    CapacityEvaluator evaluator = new CapacityEvaluator();
    PlanSearch search = new PlanSearch(evaluator, SLOS, Prices.NONE, 3, s -> { });
    PlanOutcome outcome = search.search(space(List.of("h100")), SEVEN_PER_SECOND);

    assertThat(evaluator.calls).hasSize(3);
    assertThat(outcome.rejected()).isNotEmpty().allSatisfy(r -> assertThat(r.reason())
        .isEqualTo("not searched: the search reached its limit of 3 simulated runs"));
  }

  @Test
  void sizesTheModelCannotTakeAreRejectedForEveryProfile() {
    SearchSpace bigOnL4 = new SearchSpace(ModelCatalog.geometry("llama-3.1-70b"), List.of("l4"), List.of(1, 3, 8),
        List.of(), 64);
    assertThat(bigOnL4.shapes()).extracting(SearchSpace.Shape::tensorParallelSize).containsOnly(8);
    assertThat(bigOnL4.unfit()).extracting(Rejection::tensorParallelSize).containsExactly(1, 3);
    assertThat(bigOnL4.unfit().get(0).describe())
        .startsWith("l4 TP=1: llama-3.1-70b does not fit in the memory of 1 l4");
    assertThat(bigOnL4.unfit().get(1).reason()).contains("not divisible by tensor-parallel size 3");
  }

  @Test
  void progressIsOneLinePerRun() {
    List<String> lines = new ArrayList<>();
    CapacityEvaluator evaluator = new CapacityEvaluator();
    PlanSearch search = new PlanSearch(evaluator, SLOS, Prices.NONE, 1000, lines::add);
    search.search(new SearchSpace(LLAMA_8B, List.of("h100"), List.of(1), List.of(RouterProfile.DEFAULT), 64),
        SEVEN_PER_SECOND);
    assertThat(lines).hasSize(evaluator.calls.size());
    assertThat(lines.get(0)).startsWith("h100 TP=1 x1 default: TTFT p90 467ms").endsWith("- miss ttft-p90=200ms "
        + "(measured 466.7ms)");
    assertThat(lines.get(lines.size() - 1)).endsWith("- meets the SLOs");
  }

  @Test
  void aLoadSweepRunsEachPlanAtEachRate() {
    CapacityEvaluator evaluator = new CapacityEvaluator();
    PlanSearch search = new PlanSearch(evaluator, SLOS, Prices.NONE, 1000, s -> { });
    PlanOutcome outcome = search.search(space(List.of("h100")), SEVEN_PER_SECOND);
    int before = evaluator.calls.size();
    List<LoadSweep> sweeps = search.sweep(outcome.plans().subList(0, 2), SEVEN_PER_SECOND, List.of(1.5, 0.5, 1.0));

    assertThat(sweeps).hasSize(2);
    assertThat(sweeps.get(0).points()).extracting(LoadSweep.Point::requestsPerSecond).containsExactly(3.5, 7.0, 10.5);
    assertThat(sweeps.get(0).points()).extracting(LoadSweep.Point::ttftP90).isSorted();
    assertThat(evaluator.calls.size() - before).isEqualTo(6);
    assertThat(search.totals().runs()).isEqualTo(evaluator.calls.size());
  }
}
