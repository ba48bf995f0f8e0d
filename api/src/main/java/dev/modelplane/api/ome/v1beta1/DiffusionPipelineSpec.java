package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.crdtools.SchemaPatch;
import java.util.Map;

/**
 * The parts of a diffusion (image or video generation) pipeline, as found in a diffusers {@code model_index.json}.
 *
 * @param className The pipeline class, e.g. {@code StableDiffusionXLPipeline}.
 * @param transformer The denoising transformer.
 * @param vae The variational auto-encoder.
 * @param textEncoder The text encoder.
 * @param tokenizer The tokenizer.
 * @param scheduler The noise scheduler.
 * @param additionalComponents Any further components, by component name.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DiffusionPipelineSpec(
    String className,
    DiffusionComponent transformer,
    DiffusionComponent vae,
    DiffusionComponent textEncoder,
    DiffusionComponent tokenizer,
    DiffusionComponent scheduler,
    @SchemaPatch("{\"x-kubernetes-map-type\":\"atomic\"}") Map<String, DiffusionComponent> additionalComponents) {
}
