package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Facts read from a GGUF file's header.
 *
 * @param architecture Model architecture, for example {@code llama} or {@code qwen3}.
 * @param modelName Model name recorded in the file.
 * @param quantization Quantisation type of the weights, for example {@code Q4_K_M}.
 * @param license License identifier recorded in the file.
 * @param fileVersion GGUF format version.
 * @param tensorCount Number of tensors.
 * @param contextLength Trained context length in tokens.
 * @param embeddingSize Embedding dimension.
 * @param headCount Number of attention heads.
 * @param layerCount Number of transformer blocks.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GgufMetadata(
    String architecture,
    String modelName,
    String quantization,
    String license,
    Integer fileVersion,
    Long tensorCount,
    Long contextLength,
    Long embeddingSize,
    Long headCount,
    Long layerCount) {
}
