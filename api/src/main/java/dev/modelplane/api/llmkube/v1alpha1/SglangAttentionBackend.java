package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The attention kernel implementation SGLang uses. */
public enum SglangAttentionBackend {
  /** FlashInfer, usually the fastest on recent NVIDIA GPUs. */
  @JsonProperty("flashinfer") FLASHINFER,
  /** FlashAttention, the portable choice. */
  @JsonProperty("flash_attn") FLASH_ATTN,
  /** Plain PyTorch attention, the fall-back. */
  @JsonProperty("torch_native") TORCH_NATIVE
}
