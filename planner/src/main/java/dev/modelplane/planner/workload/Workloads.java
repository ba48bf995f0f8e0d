package dev.modelplane.planner.workload;

import java.io.IOException;
import java.nio.file.Files;
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
    if (duration == null) {
      throw new IllegalArgumentException("a Poisson workload needs a duration");
    }
    return new SyntheticWorkload(new ArrivalProcess.Poisson(rate), duration.toNanos() / 1e9, null,
        new LengthDistribution.Fixed(promptTokens), new LengthDistribution.Fixed(outputTokens), null,
        RequestMix.DEFAULT, seed);
  }

  /**
   * A workload file (YAML or JSON; docs/planner.md describes it). {@code rate} and {@code duration}, when not null,
   * override the file's (a duration also drops the file's request count). The file's {@code seed}, when it has one,
   * wins over {@code seed}, so that a file pins its requests.
   */
  public static Workload file(Path file, Double rate, Duration duration, long seed) {
    return WorkloadFile.read(file, rate, duration, seed);
  }

  /**
   * A replay of recorded traffic: a request log (JSON lines) or a genai-bench result (an experiment folder or one of
   * its result files; a {@code .json} file whose first line is a whole request with its time is a log). {@code rate}, when not null, rescales the arrival times to that mean rate; {@code duration},
   * when not null, cuts the replay (or repeats it) to that length.
   */
  public static Workload replay(Path file, Double rate, Duration duration, long seed) {
    if (!Files.exists(file)) {
      throw new IllegalArgumentException(file + ": no such file or folder");
    }
    if (rate != null && (!(rate > 0) || rate.isInfinite())) {
      throw new IllegalArgumentException(file + ": the replay rate must be > 0 requests/s, got " + rate);
    }
    Double seconds = duration == null ? null : duration.toNanos() / 1e9;
    try {
      if (GenaiBenchResult.looksLike(file)) {
        GenaiBenchResult result = GenaiBenchResult.read(file);
        if (rate == null && result.measuredRate() == null) {
          throw new IllegalArgumentException(file + ": the result records no requests_per_second and run_duration; "
              + "give a rate");
        }
        double measured = result.measuredRate() != null ? result.measuredRate() : rate;
        return new ReplayWorkload(file.toString(), result.requests(), measured, rate != null ? rate : measured,
            seconds, seed);
      }
      RecordedRequests log = RequestLog.read(file);
      double recordedRate = log.size() / ReplayWorkload.periodSeconds(log.arrivalNanos());
      return new ReplayWorkload(file.toString(), log, recordedRate, rate != null ? rate : recordedRate, seconds,
          seed);
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": cannot read it (" + e.getMessage() + ")", e);
    }
  }
}
