package dev.modelplane.api.otterscale.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** An accelerator family, which decides the device resource the serving pods request. */
public enum AcceleratorType {
  /** NVIDIA GPUs, requested as {@code nvidia.com/gpu}. */
  @JsonProperty("nvidia") NVIDIA,
  /** AMD GPUs, requested as {@code amd.com/gpu}. */
  @JsonProperty("amd") AMD,
  /** Intel Gaudi accelerators, requested as {@code habana.ai/gaudi}. */
  @JsonProperty("intel-gaudi") INTEL_GAUDI,
  /** Google TPUs, requested as {@code google.com/tpu}. */
  @JsonProperty("google") GOOGLE,
  /** No accelerator: the model runs on CPU and no device resource is requested. */
  @JsonProperty("cpu") CPU
}
