package dev.modelplane.operator.llmkube.runtime;

import dev.modelplane.operator.modelsource.ModelLayout;
import java.util.List;
import java.util.Objects;

/**
 * Everything a {@link RuntimeRenderer} needs, already resolved: the server's spec (from whichever API asked for it),
 * where its model lives in the container, its GPUs, and the operator's image override for the runtime.
 *
 * @param serviceName the name of the service the server belongs to
 * @param spec what the server should look like
 * @param model the Model's layout in the pod
 * @param gpu the pod's GPUs
 * @param imageOverride image from {@code --runtime-images}, or null
 * @param draftModelPath path of llama.cpp's speculative draft model in the container, or null
 */
public record RuntimeInput(String serviceName, ServerSpec spec, ModelLayout model, GpuPlan gpu,
    String imageOverride, String draftModelPath) {

  public RuntimeInput(String serviceName, ServerSpec spec, ModelLayout model, GpuPlan gpu,
      String imageOverride) {
    this(serviceName, spec, model, gpu, imageOverride, null);
  }

  public RuntimeInput {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(model, "model");
    gpu = Objects.requireNonNullElse(gpu, GpuPlan.NONE);
  }

  /** The extra flags, never null. */
  public List<String> extraArgs() {
    return spec.extraArgs() == null ? List.of() : spec.extraArgs();
  }

  /** The address the server binds: the spec's, else {@code ::} (every IPv4 and IPv6 address). */
  public String bindAddress() {
    return spec.bindAddress() != null && !spec.bindAddress().isBlank() ? spec.bindAddress() : "::";
  }

  /** What the server serves. */
  public ServingModes.Mode mode() {
    return spec.mode();
  }

  /** The model name clients send. */
  public String modelRef() {
    return spec.servedModelName();
  }

  /**
   * The port the operator tells the server to use: {@code containerPort}, then {@code endpoint.port}, then the
   * runtime's default.
   */
  public int configuredPort(int runtimeDefault) {
    if (spec.containerPort() != null) {
      return spec.containerPort();
    }
    if (spec.endpointPort() != null) {
      return spec.endpointPort();
    }
    return runtimeDefault;
  }
}
