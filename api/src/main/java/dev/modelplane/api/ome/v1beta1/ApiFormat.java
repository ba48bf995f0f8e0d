package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The request/response dialect an inference endpoint speaks. */
public enum ApiFormat {
  /** The OpenAI API ({@code /v1/chat/completions}, {@code /v1/embeddings}, …). */
  @JsonProperty("openai") OPENAI,
  /** Cohere models as offered by OCI Generative AI. */
  @JsonProperty("oci-cohere") OCI_COHERE,
  /** The Cohere API. */
  @JsonProperty("cohere") COHERE
}
