package dev.modelplane.planner.search;

import dev.modelplane.planner.fleet.FleetResult;
import dev.modelplane.planner.fleet.LatencySummary;
import dev.modelplane.planner.fleet.RouterProfile;
import dev.modelplane.planner.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A fake evaluator whose TTFT p90 is 0.2 s × demand / capacity, the capacity being a replica's (by GPU and
 * tensor-parallel size) times the replicas, with demand the workload's rate: {@code ttft-p90=200ms} is met exactly
 * when capacity covers demand. Precise routing is 1% faster. Every call is recorded.
 */
final class CapacityEvaluator implements Evaluator {
  /** Requests/s one replica serves, by GPU and then tensor-parallel size 1, 2, 4, 8. */
  static final Map<String, double[]> CAPACITY = Map.of(
      "a100", new double[] {1.0, 2.5, 3.0, 3.5},
      "h100", new double[] {3.0, 5.0, 8.0, 9.0});

  final List<Candidate> calls = new ArrayList<>();
  long failedPerHundred;

  @Override
  public FleetResult evaluate(Candidate c, Workload workload) {
    calls.add(c);
    double capacity = CAPACITY.get(c.gpu())[Integer.numberOfTrailingZeros(c.tensorParallelSize())] * c.replicas();
    double ttft = 0.2 * workload.rate() / capacity * (c.profile() == RouterProfile.PRECISE ? 0.99 : 1);
    double tokensPerSecond = Math.min(workload.rate(), capacity) * 100;
    return new FleetResult(new LatencySummary(ttft / 2, ttft, ttft * 2, ttft), new LatencySummary(0.01, 0.02, 0.03,
        0.01), new LatencySummary(ttft + 2, ttft + 3, ttft + 4, ttft + 2), workload.rate(), workload.rate(),
        tokensPerSecond, tokensPerSecond * 10, 100 - failedPerHundred, failedPerHundred, 0.5, 60, 0.5);
  }
}
