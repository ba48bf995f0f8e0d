package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.SecretKeySelector;

/**
 * Settings for Hugging Face Text Generation Inference.
 *
 * @param quantize Quantisation method ({@code --quantize}).
 * @param dtype Weight data type ({@code --dtype}).
 * @param maxInputLength Longest accepted prompt, in tokens ({@code --max-input-length}).
 * @param maxTotalTokens Largest prompt plus completion, in tokens ({@code --max-total-tokens}).
 * @param hfTokenSecretRef Secret key holding a Hugging Face token, exposed to the server for gated or private
 *     models.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TgiConfig(
    TgiQuantization quantize,
    TgiDtype dtype,
    Integer maxInputLength,
    Integer maxTotalTokens,
    SecretKeySelector hfTokenSecretRef) {
}
