package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import java.util.Map;

/**
 * One kind of model a serving runtime can serve. A model matches an entry when its format and framework agree
 * with the entry's (names, and versions under the entry's operators), when its architecture and quantization
 * equal the entry's or are absent on both sides, and when the diffusion-pipeline components the entry sets equal
 * the model's.
 *
 * @param name Label of this entry. Matching uses {@code modelFormat.name}; upstream OME also treats this as a
 *     format name when checking that entries of the same name share one priority.
 * @param modelFormat Weight format the runtime loads, e.g. {@code safetensors}, with an optional version and
 *     comparison operator.
 * @param modelType Deprecated and unused; kept so that older manifests stay valid.
 * @param version Older place for the model format's version ({@code major}, {@code major.minor} or
 *     {@code major.minor.patch}); matching uses {@code modelFormat.version}.
 * @param modelFramework Library the model must be built for, e.g. {@code transformers}, with an optional version
 *     and comparison operator.
 * @param modelArchitecture Model class the runtime supports, e.g. {@code LlamaForCausalLM}, as in the
 *     {@code architectures} list of a Hugging Face {@code config.json}.
 * @param quantization Weight quantization the runtime supports, e.g. {@code fp8}, {@code fbgemm_fp8} or
 *     {@code int4}.
 * @param diffusionPipeline Components a diffusion model must have; every component set here must equal the
 *     model's.
 * @param autoSelect Whether the runtime may be chosen automatically for models of this kind when an
 *     InferenceService names no runtime.
 * @param priority Rank among runtimes that match the same model during auto-selection: higher wins. At least 1;
 *     1 when unset. Only used when {@code autoSelect} is true; naming a runtime in the InferenceService bypasses it.
 * @param acceleratorConfig Settings that apply when the component runs on a given accelerator class, keyed by
 *     AcceleratorClass name.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SupportedModelFormat(
    String name,
    @Required ModelFormat modelFormat,
    String modelType,
    String version,
    @Required ModelFrameworkSpec modelFramework,
    String modelArchitecture,
    String quantization,
    DiffusionPipelineSpec diffusionPipeline,
    Boolean autoSelect,
    @Min(1) Integer priority,
    Map<String, AcceleratorModelConfig> acceleratorConfig) {
}
