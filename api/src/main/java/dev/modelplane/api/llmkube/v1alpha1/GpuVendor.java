package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** GPU vendor, which decides the default extended resource requested. */
public enum GpuVendor {
  /** NVIDIA ({@code nvidia.com/gpu}); the default. */
  @JsonProperty("nvidia") NVIDIA,
  /** AMD ({@code amd.com/gpu}, or the DRI render resource with a Vulkan or ROCm runtime). */
  @JsonProperty("amd") AMD,
  /** Intel ({@code gpu.intel.com/i915}). */
  @JsonProperty("intel") INTEL
}
