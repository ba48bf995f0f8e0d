package dev.modelplane.cli.plan;

import dev.modelplane.cli.user.UserError;
import dev.modelplane.planner.search.Candidate;
import dev.modelplane.planner.workload.Workload;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * How {@code plan} reads a model from a manifest ({@code -f}) and writes the chosen configuration's manifest
 * ({@code --emit}).
 *
 * @param read the model a manifest serves
 * @param emit the manifest (YAML) of a configuration
 */
record ManifestInput(Function<Path, PlanModel> read, Emitter emit) {
  /** Used until manifests are supported: both directions are a one-line error. */
  static final ManifestInput UNAVAILABLE = new ManifestInput(
      manifest -> {
        throw new UserError("-f/--filename: reading the model from a manifest is not available yet; give "
            + "--model-config or --preset");
      },
      (model, candidate, workload) -> {
        throw new UserError("--emit: writing a manifest is not available yet");
      });

  /** Writes a configuration as a manifest. */
  @FunctionalInterface
  interface Emitter {
    String emit(PlanModel model, Candidate candidate, Workload workload);
  }
}
