package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The kind of request a benchmark sends, named &lt;input&gt;-to-&lt;output&gt;. */
public enum BenchmarkTask {
  /** Text prompts, text completions (chat or completion endpoints). */
  @JsonProperty("text-to-text") TEXT_TO_TEXT,
  /** Image plus text prompts, text completions (vision-language models). */
  @JsonProperty("image-to-text") IMAGE_TO_TEXT,
  /** Text inputs, embedding vectors. */
  @JsonProperty("text-to-embeddings") TEXT_TO_EMBEDDINGS,
  /** Image inputs, embedding vectors. */
  @JsonProperty("image-to-embeddings") IMAGE_TO_EMBEDDINGS,
  /** A query and documents, relevance scores (rerank endpoints). */
  @JsonProperty("text-to-rerank") TEXT_TO_RERANK,
  /** Text inputs, synthesised speech. */
  @JsonProperty("text-to-speech") TEXT_TO_SPEECH
}
