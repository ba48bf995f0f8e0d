package dev.modelplane.planner.search;

/**
 * What the simulations of a plan cost.
 *
 * @param runs simulated runs
 * @param simulatedSeconds simulated time over every run
 * @param wallSeconds wall time over every run
 */
public record SimulationTotals(int runs, double simulatedSeconds, double wallSeconds) {
  public static final SimulationTotals NONE = new SimulationTotals(0, 0, 0);

  /** How many times faster than real time the runs went together. */
  public double speedUp() {
    return wallSeconds > 0 ? simulatedSeconds / wallSeconds : Double.POSITIVE_INFINITY;
  }

  /** These totals and one more run. */
  SimulationTotals plus(double simulated, double wall) {
    return new SimulationTotals(runs + 1, simulatedSeconds + simulated, wallSeconds + wall);
  }
}
