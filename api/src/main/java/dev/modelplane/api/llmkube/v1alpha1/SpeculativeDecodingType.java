package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Speculative decoding method of llama.cpp ({@code --spec-type}). The {@code draft*} methods except {@code draft-mtp}
 * need draft weights ({@code draftModelRef} or {@code draftModel}); the n-gram methods and {@code mtp} must not have
 * any.
 */
public enum SpeculativeDecodingType {
  /** No speculative decoding; no flag is passed. */
  @JsonProperty("none") NONE,
  /** Same as {@code none}. */
  @JsonProperty("disabled") DISABLED,
  /** Short for {@code draft-mtp}, using the model's own multi-token-prediction head; takes no draft weights. */
  @JsonProperty("mtp") MTP,
  /** Short for {@code draft-simple}. */
  @JsonProperty("draft") DRAFT,
  /** A separate, smaller draft model proposes tokens that the main model verifies. */
  @JsonProperty("draft-simple") DRAFT_SIMPLE,
  /** An EAGLE-3 drafter. */
  @JsonProperty("draft-eagle3") DRAFT_EAGLE3,
  /** Multi-token prediction; draft weights are optional. */
  @JsonProperty("draft-mtp") DRAFT_MTP,
  /** A DFlash drafter. */
  @JsonProperty("draft-dflash") DRAFT_DFLASH,
  /** A DSpark drafter. */
  @JsonProperty("draft-dspark") DRAFT_DSPARK,
  /** Drafts from simple n-gram matches in the context; no draft model. */
  @JsonProperty("ngram-simple") NGRAM_SIMPLE,
  /** Drafts from an n-gram map keyed by the last tokens; no draft model. */
  @JsonProperty("ngram-map-k") NGRAM_MAP_K,
  /** Variant of {@code ngram-map-k} that maps keys to four-token values; no draft model. */
  @JsonProperty("ngram-map-k4v") NGRAM_MAP_K4V,
  /** Drafts from llama.cpp's {@code ngram-mod} n-gram model; no draft model. */
  @JsonProperty("ngram-mod") NGRAM_MOD,
  /** Drafts from a cache of n-grams seen so far; no draft model. */
  @JsonProperty("ngram-cache") NGRAM_CACHE
}
