package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** SGLang KV cache element type. */
public enum SglangKvCacheDtype {
  /** Same as the model's data type (the default). */
  @JsonProperty("auto") AUTO,
  /** 8-bit floats with a 5-bit exponent; about half the memory of 16-bit caches. */
  @JsonProperty("fp8_e5m2") FP8_E5M2,
  /** 8-bit floats with a 4-bit exponent; about half the memory of 16-bit caches. */
  @JsonProperty("fp8_e4m3") FP8_E4M3
}
