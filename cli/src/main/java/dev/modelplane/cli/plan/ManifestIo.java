package dev.modelplane.cli.plan;

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
record ManifestIo(Reader read, Emitter emit) {
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
