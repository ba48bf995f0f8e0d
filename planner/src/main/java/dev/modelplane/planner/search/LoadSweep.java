package dev.modelplane.planner.search;

import dev.modelplane.planner.fleet.FleetResult;
import java.util.List;

/**
 * How one configuration's latency grows with load: its simulated runs at several multiples of the target rate.
 *
 * @param candidate the configuration
 * @param points one per rate, in rate order
 */
public record LoadSweep(Candidate candidate, List<Point> points) {
  /** Rates tried, as multiples of the workload's rate, when none are given. */
  public static final List<Double> DEFAULT_FACTORS = List.of(0.25, 0.5, 0.75, 1.0, 1.25, 1.5);

  public LoadSweep {
    points = List.copyOf(points);
  }

  /**
   * One run of a sweep.
   *
   * @param requestsPerSecond the offered rate
   * @param result what the run measured
   */
  public record Point(double requestsPerSecond, FleetResult result) {
    /** TTFT p90 in seconds. */
    public double ttftP90() {
      return result.ttft().p90();
    }

    /** End-to-end latency p90 in seconds. */
    public double e2eP90() {
      return result.e2e().p90();
    }
  }
}
