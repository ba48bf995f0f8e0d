package dev.modelplane.planner.search;

import java.util.List;

/**
 * The answer of a plan: the configurations that meet the objectives, best first, and those that cannot.
 *
 * @param plans configurations meeting every objective, best first (cheapest, else fewest GPUs; ties by TTFT p90)
 * @param rejected configurations that cannot meet them, with why
 * @param workload the workload's one-line description
 * @param slos the objectives
 * @param priced true when plans were ranked by cost
 * @param simulation what the simulations took
 */
public record PlanOutcome(List<Plan> plans, List<Rejection> rejected, String workload, List<Slo> slos,
    boolean priced, SimulationTotals simulation) {
  public PlanOutcome {
    plans = List.copyOf(plans);
    rejected = List.copyOf(rejected);
    slos = List.copyOf(slos);
  }

  /** The best {@code n} plans (all when fewer). */
  public PlanOutcome top(int n) {
    return new PlanOutcome(plans.subList(0, Math.min(n, plans.size())), rejected, workload, slos, priced, simulation);
  }

  /** The same answer with other simulation totals (after a load sweep, say). */
  public PlanOutcome withSimulation(SimulationTotals totals) {
    return new PlanOutcome(plans, rejected, workload, slos, priced, totals);
  }
}
