package dev.modelplane.operator.ome.runtime;

import dev.modelplane.api.ome.v1beta1.SupportedModelFormat;
import java.util.List;

/** The outcome of choosing a runtime: the runtime, or why there is none. */
public sealed interface RuntimeChoice {
  /**
   * A runtime serves the model.
   *
   * @param runtime the runtime
   * @param format its best-scoring supported format for the model (drives accelerator settings), or null
   * @param score that format's score
   * @param named whether the InferenceService named the runtime (else it was auto-selected)
   */
  record Chosen(RuntimeCandidate runtime, SupportedModelFormat format, long score, boolean named)
      implements RuntimeChoice {
    /** How the runtime was chosen, for the RuntimeSelected condition. */
    public String describe() {
      return runtime.describe() + (named ? " (named in spec.runtime)" : " (auto-selected, score " + score + ")");
    }
  }

  /**
   * No runtime serves the model.
   *
   * @param reason CamelCase reason: NoSupportingRuntime, RuntimeNotRecognized, RuntimeDisabled or InvalidModel
   * @param message what was checked and why each runtime was excluded
   * @param excluded the excluded runtimes, each with its first reason
   */
  record NoRuntime(String reason, String message, List<Exclusion> excluded) implements RuntimeChoice {
    public NoRuntime {
      excluded = List.copyOf(excluded);
    }
  }

  /**
   * A runtime left out, and why.
   *
   * @param runtime its name
   * @param scope where it is defined
   * @param reason why it does not serve the model
   */
  record Exclusion(String runtime, RuntimeCandidate.Scope scope, String reason) {
  }
}
