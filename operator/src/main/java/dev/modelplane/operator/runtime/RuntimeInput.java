package dev.modelplane.operator.runtime;

import dev.modelplane.api.llmkube.v1alpha1.InferenceServiceSpec;
import dev.modelplane.operator.modelsource.ModelLayout;
import java.util.List;
import java.util.Objects;

/**
 * Everything a {@link RuntimeRenderer} needs, already resolved: the service's spec, where its model lives in the
 * container, its GPUs, and the operator's image override for the runtime.
 *
 * @param serviceName the InferenceService's name
 * @param spec the InferenceService's spec
 * @param model the Model's layout in the pod
 * @param gpu the pod's GPUs
 * @param imageOverride image from {@code --runtime-images}, or null
 * @param draftModelPath path of llama.cpp's speculative draft model in the container, or null
 */
public record RuntimeInput(String serviceName, InferenceServiceSpec spec, ModelLayout model, GpuPlan gpu,
    String imageOverride, String draftModelPath) {

  public RuntimeInput(String serviceName, InferenceServiceSpec spec, ModelLayout model, GpuPlan gpu,
      String imageOverride) {
    this(serviceName, spec, model, gpu, imageOverride, null);
  }

  public RuntimeInput {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(model, "model");
    gpu = Objects.requireNonNullElse(gpu, GpuPlan.NONE);
  }

  /** {@code spec.extraArgs}, never null. */
  public List<String> extraArgs() {
    return spec.extraArgs() == null ? List.of() : spec.extraArgs();
  }

  /** The address the server binds: {@code spec.bindAddress}, else {@code ::} (every IPv4 and IPv6 address). */
  public String bindAddress() {
    return spec.bindAddress() != null && !spec.bindAddress().isBlank() ? spec.bindAddress() : "::";
  }

  /** What the server serves: {@code spec.mode}, else inferred from {@code extraArgs} and {@code endpoint.path}. */
  public ServingModes.Mode mode() {
    return ServingModes.resolve(spec);
  }

  /** The Model's name ({@code spec.modelRef}). */
  public String modelRef() {
    return spec.modelRef();
  }

  /**
   * The port the operator tells the server to use: {@code containerPort}, then {@code endpoint.port}, then the
   * runtime's default.
   */
  public int configuredPort(int runtimeDefault) {
    if (spec.containerPort() != null) {
      return spec.containerPort();
    }
    if (spec.endpoint() != null && spec.endpoint().port() != null) {
      return spec.endpoint().port();
    }
    return runtimeDefault;
  }
}
