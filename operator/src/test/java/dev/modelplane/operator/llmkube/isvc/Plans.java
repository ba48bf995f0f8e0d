package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.TestObjects;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;

/** Plans and objects from YAML, for builder tests. */
final class Plans {
  static final String HTTPS_MODEL = "source: https://example.com/repo/resolve/main/llama-Q4_K_M.gguf\n";
  static final String PVC_MODEL = "source: pvc://store/llama.gguf\n";
  static final String GPU_MODEL = HTTPS_MODEL + "hardware:\n  accelerator: cuda\n  gpu: {enabled: true, count: 1}\n";

  private Plans() {
  }

  static ServingPlan plan(String isvcSpec, String modelSpec) {
    return plan(isvcSpec, modelSpec, OperatorSettings.defaults());
  }

  static ServingPlan plan(String isvcSpec, String modelSpec, OperatorSettings settings) {
    return ServingPlan.of(TestObjects.isvc(isvcSpec), TestObjects.model(modelSpec), settings);
  }

  static Deployment deployment(String isvcSpec, String modelSpec) {
    return IsvcDeploymentBuilder.build(plan(isvcSpec, modelSpec), null);
  }

  static PodSpec pod(String isvcSpec, String modelSpec) {
    return deployment(isvcSpec, modelSpec).getSpec().getTemplate().getSpec();
  }

  static PodSpec pod(String isvcSpec, String modelSpec, OperatorSettings settings) {
    return IsvcDeploymentBuilder.build(plan(isvcSpec, modelSpec, settings), null).getSpec().getTemplate().getSpec();
  }

  /** The pod's volumes without the model server's home directory, which every pod has. */
  static java.util.List<io.fabric8.kubernetes.api.model.Volume> modelVolumes(PodSpec pod) {
    return pod.getVolumes().stream()
        .filter(v -> !v.getName().equals(dev.modelplane.operator.common.SecurityDefaults.HOME_VOLUME)).toList();
  }

  static Container server(String isvcSpec, String modelSpec) {
    return pod(isvcSpec, modelSpec).getContainers().getFirst();
  }
}
