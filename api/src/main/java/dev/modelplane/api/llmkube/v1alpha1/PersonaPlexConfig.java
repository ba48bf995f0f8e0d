package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.SecretKeySelector;

/**
 * Settings for the PersonaPlex (Moshi) speech-to-speech runtime.
 *
 * @param quantize4Bit Loads the weights in 4-bit NF4, using roughly 10 GB of VRAM instead of 14 GB. The image must
 *     contain bitsandbytes.
 * @param cpuOffload Moves weights to system RAM when VRAM is too small. The image must contain accelerate.
 * @param hfTokenSecretRef Secret key holding a Hugging Face token for downloading the model; exposed to the server as
 *     {@code HF_TOKEN}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PersonaPlexConfig(Boolean quantize4Bit, Boolean cpuOffload, SecretKeySelector hfTokenSecretRef) {
}
