package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** A llama.cpp KV cache element type. */
public enum KvCacheType {
  /** 16-bit floats, llama.cpp's default. */
  @JsonProperty("f16") F16,
  /** 32-bit floats. */
  @JsonProperty("f32") F32,
  /** 8-bit quantisation, roughly half the memory of f16. */
  @JsonProperty("q8_0") Q8_0,
  /** 4-bit quantisation. */
  @JsonProperty("q4_0") Q4_0,
  /** 4-bit quantisation with an offset. */
  @JsonProperty("q4_1") Q4_1,
  /** 5-bit quantisation. */
  @JsonProperty("q5_0") Q5_0,
  /** 5-bit quantisation with an offset. */
  @JsonProperty("q5_1") Q5_1,
  /** 4-bit non-linear quantisation. */
  @JsonProperty("iq4_nl") IQ4_NL
}
