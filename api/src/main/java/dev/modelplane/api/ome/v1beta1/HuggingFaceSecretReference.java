package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;

/**
 * A Secret in the benchmark's own namespace that holds a Hugging Face access token under the key
 * {@code HUGGINGFACE_API_KEY}, used to download tokenizers and datasets from the Hub.
 *
 * @param name Name of the Secret.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HuggingFaceSecretReference(@Required String name) {
}
