package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Log level of the SGLang server. */
public enum SglangLogLevel {
  /** Everything, including debugging detail. */
  @JsonProperty("debug") DEBUG,
  /** Normal operation messages. */
  @JsonProperty("info") INFO,
  /** Warnings and errors only. */
  @JsonProperty("warning") WARNING,
  /** Errors only. */
  @JsonProperty("error") ERROR
}
