package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The format SGLang extracts tool calls from, which depends on the model family. */
public enum SglangToolCallParser {
  /** Llama 3. */
  @JsonProperty("llama3") LLAMA3,
  /** Qwen3. */
  @JsonProperty("qwen3") QWEN3,
  /** Qwen2.5. */
  @JsonProperty("qwen25") QWEN25,
  /** Hermes-style tool calls. */
  @JsonProperty("hermes") HERMES,
  /** Functionary. */
  @JsonProperty("functionary") FUNCTIONARY,
  /** Mistral. */
  @JsonProperty("mistral") MISTRAL
}
