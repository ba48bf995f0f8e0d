package dev.modelplane.cli.plan;

import dev.modelplane.planner.workload.Workload;
import dev.modelplane.planner.workload.Workloads;
import java.nio.file.Path;
import java.time.Duration;

/** Where {@code plan}'s traffic comes from: {@link Workloads}' factories (a fake in tests). */
interface WorkloadSource {
  /** The planner's workload factories. */
  WorkloadSource WORKLOADS = new WorkloadSource() {
    @Override
    public Workload poisson(double rate, int promptTokens, int outputTokens, Duration duration, long seed) {
      return Workloads.poisson(rate, promptTokens, outputTokens, duration, seed);
    }

    @Override
    public Workload file(Path file, Double rate, Duration duration, long seed) {
      return Workloads.file(file, rate, duration, seed);
    }

    @Override
    public Workload replay(Path file, Double rate, Duration duration, long seed) {
      return Workloads.replay(file, rate, duration, seed);
    }
  };

  Workload poisson(double rate, int promptTokens, int outputTokens, Duration duration, long seed);

  Workload file(Path file, Double rate, Duration duration, long seed);

  Workload replay(Path file, Double rate, Duration duration, long seed);
}
