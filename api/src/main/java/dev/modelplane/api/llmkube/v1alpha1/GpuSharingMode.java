package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** How an InferenceService holds its GPU. */
public enum GpuSharingMode {
  /** Whole GPUs for this service alone (the default). */
  @JsonProperty("exclusive") EXCLUSIVE,
  /**
   * The GPU is shared with other workloads (for example by time-slicing). No isolation: meant for workloads that
   * trust each other.
   */
  @JsonProperty("shared") SHARED,
  /** A hardware partition of a GPU, such as an NVIDIA MIG slice named by {@code profile}. */
  @JsonProperty("partitioned") PARTITIONED
}
