package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** How SGLang separates a thinking model's reasoning from its answer. */
public enum SglangReasoningParser {
  /** Qwen3's thinking format. */
  @JsonProperty("qwen3") QWEN3,
  /** DeepSeek-R1's thinking format. */
  @JsonProperty("deepseek-r1") DEEPSEEK_R1
}
