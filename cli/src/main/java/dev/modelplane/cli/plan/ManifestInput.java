package dev.modelplane.cli.plan;

import dev.modelplane.cli.user.UserError;
import dev.modelplane.planner.search.Candidate;
import dev.modelplane.planner.workload.Workload;
import java.io.IOException;
import java.nio.file.Path;

/**
 * How {@code plan} reads a model from a manifest ({@code -f}) and writes the chosen configuration's manifest
 * ({@code --emit}).
 *
 * @param read the model a manifest serves
 * @param emit the manifest (YAML) of a configuration
 */
record ManifestInput(Reader read, Emitter emit) {
  /** Used until manifests are supported: both directions are a one-line error. */
  static final ManifestInput UNAVAILABLE = new ManifestInput(
      manifest -> {
        throw new UserError("-f/--filename: reading the model from a manifest is not available yet; give "
            + "--model-config or --preset");
      },
      (model, candidate, workload) -> {
        throw new UserError("--emit: writing a manifest is not available yet");
      });

  /** Reads the model a manifest serves. */
  @FunctionalInterface
  interface Reader {
    PlanModel read(Path manifest) throws IOException;
  }

  /** Writes a configuration as a manifest. */
  @FunctionalInterface
  interface Emitter {
    String emit(PlanModel model, Candidate candidate, Workload workload) throws IOException;
  }
}
