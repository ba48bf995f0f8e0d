package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Quantisation format of the weights vLLM loads. */
public enum VllmQuantization {
  /** 4-bit AWQ checkpoints. */
  @JsonProperty("awq") AWQ,
  /** 4-bit GPTQ checkpoints. */
  @JsonProperty("gptq") GPTQ,
  /** SqueezeLLM checkpoints. */
  @JsonProperty("squeezellm") SQUEEZELLM,
  /** 8-bit floating-point checkpoints. */
  @JsonProperty("fp8") FP8,
  /** NVIDIA's 4-bit floating-point format for Blackwell GPUs. */
  @JsonProperty("nvfp4") NVFP4,
  /** The OCP microscaling 4-bit floating-point format. */
  @JsonProperty("mxfp4") MXFP4,
  /** The compressed-tensors container format, which covers several quantisation schemes. */
  @JsonProperty("compressed-tensors") COMPRESSED_TENSORS
}
