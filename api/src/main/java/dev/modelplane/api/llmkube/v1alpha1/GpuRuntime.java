package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** GPU compute stack for AMD GPUs with llama.cpp. */
public enum GpuRuntime {
  /** The Vulkan build of llama.cpp, on the shared DRI render device resource. */
  @JsonProperty("vulkan") VULKAN,
  /** The ROCm/HIP build of llama.cpp, on the shared DRI render device resource. */
  @JsonProperty("rocm") ROCM
}
