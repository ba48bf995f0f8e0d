package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The kind of hardware acceleration a model is served with. */
public enum Accelerator {
  /** No accelerator (the default). */
  @JsonProperty("cpu") CPU,
  /** Apple Silicon GPUs, served by the host agent outside the cluster. */
  @JsonProperty("metal") METAL,
  /** NVIDIA GPUs. */
  @JsonProperty("cuda") CUDA,
  /** AMD GPUs through ROCm/HIP. */
  @JsonProperty("rocm") ROCM,
  /** Intel GPUs. */
  @JsonProperty("intel") INTEL,
  /** AMD or Intel GPUs through Vulkan. */
  @JsonProperty("vulkan") VULKAN
}
