package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * A LoRA adapter SGLang loads at start-up.
 *
 * @param name The name requests use to select the adapter; at least one character.
 * @param path Where the adapter's weights are inside the container (mount them with {@code extraVolumes} and
 *     {@code extraVolumeMounts}); at least one character.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SglangLoraAdapter(
    @Required @Size(min = 1) String name,
    @Required @Size(min = 1) String path) {
}
