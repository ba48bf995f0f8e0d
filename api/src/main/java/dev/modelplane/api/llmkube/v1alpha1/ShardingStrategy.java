package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** How a model is split across several GPUs of one pod. */
public enum ShardingStrategy {
  /** Whole layers per GPU (the default). */
  @JsonProperty("layer") LAYER,
  /** Each tensor operation split across the GPUs (llama.cpp row split). */
  @JsonProperty("tensor") TENSOR,
  /** Same as {@code tensor}. */
  @JsonProperty("row") ROW,
  /** Accepted for forward compatibility; currently treated as {@code layer}. */
  @JsonProperty("pipeline") PIPELINE,
  /** No splitting: the model runs on a single GPU. */
  @JsonProperty("none") NONE
}
