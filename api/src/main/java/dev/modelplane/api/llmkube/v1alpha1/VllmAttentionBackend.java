package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The attention kernel implementation vLLM uses. Upper-case names are vLLM's own; the lower-case forms are accepted for
 * compatibility with older manifests.
 */
public enum VllmAttentionBackend {
  /** FlashAttention. */
  @JsonProperty("FLASH_ATTN") FLASH_ATTN,
  /** FlashInfer, usually the fastest on recent NVIDIA GPUs. */
  @JsonProperty("FLASHINFER") FLASHINFER,
  /** xFormers, a portable fallback. */
  @JsonProperty("XFORMERS") XFORMERS,
  /** Lower-case spelling of {@code FLASHINFER}. */
  @JsonProperty("flashinfer") FLASHINFER_LOWER,
  /** Lower-case spelling of {@code FLASH_ATTN}. */
  @JsonProperty("flash_attn") FLASH_ATTN_LOWER,
  /** Lower-case spelling of {@code XFORMERS}. */
  @JsonProperty("xformers") XFORMERS_LOWER,
  /** PyTorch's scaled-dot-product attention, a portable fallback. */
  @JsonProperty("torch_sdpa") TORCH_SDPA
}
