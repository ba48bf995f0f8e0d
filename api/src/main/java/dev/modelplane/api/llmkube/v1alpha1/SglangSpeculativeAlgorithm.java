package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Speculative decoding algorithm of SGLang. */
public enum SglangSpeculativeAlgorithm {
  /** EAGLE draft heads. */
  @JsonProperty("EAGLE") EAGLE,
  /** EAGLE-3 draft heads. */
  @JsonProperty("EAGLE3") EAGLE3,
  /** Medusa decoding heads. */
  @JsonProperty("Medusa") MEDUSA
}
