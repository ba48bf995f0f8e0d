package dev.modelplane.planner.fleet;

import java.util.Arrays;

/** A growing list of latency samples in seconds and their percentiles (linear between ranks, as numpy's default). */
final class LatencySamples {
  private double[] values = new double[1024];
  private int size;

  void add(double seconds) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = seconds;
  }

  int size() {
    return size;
  }

  LatencySummary summary() {
    if (size == 0) {
      return LatencySummary.NONE;
    }
    double[] sorted = Arrays.copyOf(values, size);
    Arrays.sort(sorted);
    double sum = 0;
    for (double v : sorted) {
      sum += v;
    }
    return new LatencySummary(percentile(sorted, 50), percentile(sorted, 90), percentile(sorted, 99), sum / size);
  }

  static double percentile(double[] sorted, double p) {
    double rank = p / 100.0 * (sorted.length - 1);
    int lo = (int) Math.floor(rank);
    int hi = Math.min(sorted.length - 1, lo + 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
  }
}
