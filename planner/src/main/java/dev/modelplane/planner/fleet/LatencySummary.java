package dev.modelplane.planner.fleet;

/**
 * Percentiles of one latency over the measured requests, in seconds (NaN when no request was measured).
 *
 * @param p50 median
 * @param p90 90th percentile
 * @param p99 99th percentile
 * @param mean mean
 */
public record LatencySummary(double p50, double p90, double p99, double mean) {
  public static final LatencySummary NONE = new LatencySummary(Double.NaN, Double.NaN, Double.NaN, Double.NaN);

  /** The percentile {@code p} (50, 90 or 99). */
  public double percentile(int p) {
    return switch (p) {
      case 50 -> p50;
      case 90 -> p90;
      case 99 -> p99;
      default -> throw new IllegalArgumentException("percentile must be 50, 90 or 99, got " + p);
    };
  }
}
