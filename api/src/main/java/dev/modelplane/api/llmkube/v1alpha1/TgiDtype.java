package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Weight data type for Text Generation Inference. */
public enum TgiDtype {
  /** 16-bit IEEE floats. */
  @JsonProperty("float16") FLOAT16,
  /** 16-bit brain floats. */
  @JsonProperty("bfloat16") BFLOAT16
}
