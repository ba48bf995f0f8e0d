package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** An inference API a serving runtime speaks. */
public enum InferenceServiceProtocol {
  /** The OpenAI-compatible HTTP API (chat completions, completions, embeddings). */
  @JsonProperty("openAI") OPENAI,
  /** Cohere's HTTP API. */
  @JsonProperty("cohere") COHERE,
  /** Version 1 of the Open Inference (KServe) protocol. */
  @JsonProperty("openInference-v1") OPEN_INFERENCE_V1,
  /** Version 2 of the Open Inference (KServe) protocol. */
  @JsonProperty("openInference-v2") OPEN_INFERENCE_V2
}
