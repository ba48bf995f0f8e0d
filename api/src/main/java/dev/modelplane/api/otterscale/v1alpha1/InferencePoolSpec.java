package dev.modelplane.api.otterscale.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;

/**
 * Explicit settings for the model's InferencePool ({@code inference.networking.k8s.io/v1}, named like the
 * ModelService). The pool selects the decode and prefill pods alike, targets {@code engine.port}, and names the
 * endpoint picker's Service as its extension.
 *
 * @param endpointPicker The per-model endpoint picker that chooses a serving pod for each request.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InferencePoolSpec(@Required EndpointPickerSpec endpointPicker) {
}
