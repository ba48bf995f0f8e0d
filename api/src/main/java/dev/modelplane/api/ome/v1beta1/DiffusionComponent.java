package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One component of a diffusion pipeline.
 *
 * @param library The Python library that provides the component, e.g. {@code diffusers} or {@code transformers}.
 * @param type The component's class name within that library.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DiffusionComponent(String library, String type) {
}
