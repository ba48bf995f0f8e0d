package dev.modelplane.operator.llmkube.runtime;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.operator.TestObjects;
import dev.modelplane.operator.llmkube.isvc.ServingPlan;
import dev.modelplane.operator.modelsource.ModelLayout;
import java.util.List;

/** Helpers for the table-driven renderer tests. */
final class RuntimeCases {
  /** A GGUF file on a claim: short, hash-free paths in expectations. */
  static final String PVC_MODEL = "source: pvc://store/llama.gguf\n";

  private RuntimeCases() {
  }

  static RuntimeInput input(String isvcSpec, String modelSpec) {
    InferenceService isvc = TestObjects.isvc(isvcSpec);
    Model model = TestObjects.model(modelSpec);
    ModelLayout layout = ModelLayout.of(model, "https://huggingface.co");
    return new RuntimeInput("svc", dev.modelplane.operator.llmkube.isvc.LlmkubeServerSpec.of(isvc.getSpec()), layout, GpuPlan.of(isvc.getSpec(), model), null,
        dev.modelplane.operator.llmkube.isvc.ServingPlan.draftPath(isvc.getSpec(), layout, null));
  }

  static List<String> argv(String line) {
    return List.of(line.trim().split("\\s+"));
  }

  /**
   * One row of a table.
   *
   * @param name what the row shows
   * @param isvcSpec InferenceService spec YAML
   * @param modelSpec Model spec YAML
   * @param args expected argv, whitespace-separated (arguments with spaces are checked separately)
   */
  record Case(String name, String isvcSpec, String modelSpec, String args) {
    @Override
    public String toString() {
      return name;
    }
  }
}
