package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The kind of API an InferenceService serves. */
public enum ServingMode {
  /** Chat and text completions (the default when nothing points to another mode). */
  @JsonProperty("chat") CHAT,
  /** Embeddings ({@code /v1/embeddings}); llama.cpp gets {@code --embedding --pooling last}. */
  @JsonProperty("embedding") EMBEDDING,
  /** Reranking ({@code /v1/rerank}); llama.cpp gets {@code --reranking --embedding --pooling rank}. */
  @JsonProperty("rerank") RERANK
}
