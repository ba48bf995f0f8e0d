package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** File format of a model's weights. */
public enum ModelFileFormat {
  /** GGUF, for llama.cpp (the default). */
  @JsonProperty("gguf") GGUF,
  /** An MLX model directory, for Apple Silicon runtimes. */
  @JsonProperty("mlx") MLX,
  /** safetensors weights, for the generic runtime. */
  @JsonProperty("safetensors") SAFETENSORS,
  /** PyTorch checkpoints, for the generic runtime. */
  @JsonProperty("pytorch") PYTORCH,
  /** Anything else, for the generic runtime. */
  @JsonProperty("custom") CUSTOM
}
