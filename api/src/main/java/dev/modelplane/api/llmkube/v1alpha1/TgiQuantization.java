package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Quantisation method for Text Generation Inference. */
public enum TgiQuantization {
  /** On-the-fly 8-bit quantisation with bitsandbytes. */
  @JsonProperty("bitsandbytes") BITSANDBYTES,
  /** Pre-quantised GPTQ weights. */
  @JsonProperty("gptq") GPTQ,
  /** Pre-quantised AWQ weights. */
  @JsonProperty("awq") AWQ,
  /** On-the-fly 8-bit quantisation with EETQ. */
  @JsonProperty("eetq") EETQ
}
