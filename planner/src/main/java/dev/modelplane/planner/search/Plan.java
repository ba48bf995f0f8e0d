package dev.modelplane.planner.search;

import dev.modelplane.planner.fleet.FleetResult;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A configuration that meets the objectives with the fewest replicas of its shape, and what it costs.
 *
 * @param candidate the configuration
 * @param result what its simulated run measured
 * @param gpus GPUs it takes (tensor parallelism × replicas)
 * @param costPerHour dollars per hour, or null when unpriced
 * @param costPerMillionTokens dollars per million output tokens at the measured throughput, or null when unpriced
 * @param sloMargins each objective's margin (at least 1 when met), by the objective's text, in the order given
 * @param meetsSlos true when every objective is met and at most 1% of requests failed
 * @param extrapolations where the figures go beyond what was measured, as plain sentences
 */
public record Plan(Candidate candidate, FleetResult result, int gpus, Double costPerHour, Double costPerMillionTokens,
    Map<String, Double> sloMargins, boolean meetsSlos, List<String> extrapolations) {

  public Plan {
    sloMargins = Collections.unmodifiableMap(new LinkedHashMap<>(sloMargins));
    extrapolations = List.copyOf(extrapolations);
  }

  /** Dollars per million output tokens for {@code dollarsPerHour} at {@code outputTokensPerSecond}; null if none. */
  static Double costPerMillionTokens(Double dollarsPerHour, double outputTokensPerSecond) {
    if (dollarsPerHour == null || !(outputTokensPerSecond > 0)) {
      return null;
    }
    return dollarsPerHour / (outputTokensPerSecond * 3600) * 1e6;
  }
}
