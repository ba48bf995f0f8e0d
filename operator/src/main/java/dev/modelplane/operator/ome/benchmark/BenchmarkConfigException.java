package dev.modelplane.operator.ome.benchmark;

/** A BenchmarkJob whose spec cannot be turned into a Job; the message is written into its status as is. */
final class BenchmarkConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  BenchmarkConfigException(String message) {
    super(message);
  }
}
