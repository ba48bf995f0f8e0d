package dev.modelplane.api.ome.v1beta1;

/** Progress of a benchmark run. */
public enum BenchmarkState {
  /** The run has not started: its job does not exist yet, e.g. because the target is not ready. */
  Pending,
  /** The benchmark job is running. */
  Running,
  /** The benchmark job finished successfully and its results were written. */
  Completed,
  /** The benchmark job failed; {@code failureMessage} says why. */
  Failed
}
