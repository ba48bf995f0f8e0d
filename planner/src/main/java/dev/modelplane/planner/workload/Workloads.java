package dev.modelplane.planner.workload;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The workloads a plan can be asked about. Every factory is deterministic for a given {@code seed}; errors are
 * {@link IllegalArgumentException}s whose message is one line naming the file (and line) or value at fault.
 */
public final class Workloads {
  private Workloads() {
  }

  /** Poisson arrivals at {@code rate} requests/s for {@code duration}, every request with the given lengths. */
  public static Workload poisson(double rate, int promptTokens, int outputTokens, Duration duration, long seed) {
    throw new UnsupportedOperationException("not yet");
  }

  /**
   * A workload file (YAML or JSON; docs/planner.md describes it). {@code rate} and {@code duration}, when not null,
   * override the file's.
   */
  public static Workload file(Path file, Double rate, Duration duration, long seed) {
    throw new UnsupportedOperationException("not yet");
  }

  /**
   * A replay of recorded traffic: a request log (JSON lines) or a genai-bench result (an experiment folder or one of
   * its result files). {@code rate}, when not null, rescales the arrival times to that mean rate; {@code duration},
   * when not null, cuts the replay (or repeats it) to that length.
   */
  public static Workload replay(Path file, Double rate, Duration duration, long seed) {
    throw new UnsupportedOperationException("not yet");
  }
}
