package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Required;
import java.util.List;
import java.util.Map;

/**
 * A foundation model: where its weights are, which nodes keep a copy, and what it is (format, framework,
 * architecture, size, capabilities), which serving runtimes are matched against. Descriptive fields left empty are
 * filled in from the model's own configuration files once they have been downloaded, unless the object carries the
 * annotation {@code ome.oracle.com/skip-config-parsing: "true"}.
 *
 * @param modelFormat Storage format of the weights (e.g. {@code safetensors}) and its version; required for a
 *     runtime to be selected automatically.
 * @param modelType Architecture family of the model, as the {@code model_type} of a Hugging Face
 *     {@code config.json} (e.g. {@code llama}, {@code qwen2}, {@code bert}).
 * @param modelFramework Library the model was built for (e.g. {@code transformers}) and its version.
 * @param modelArchitecture Concrete model class, as the first entry of {@code architectures} in a Hugging Face
 *     {@code config.json} (e.g. {@code LlamaForCausalLM}). A runtime that names an architecture only matches models
 *     with the same one.
 * @param quantization Quantization of the weights, e.g. {@code fp8}, {@code fbgemm_fp8} or {@code int4}. A runtime
 *     that names a quantization only matches models with the same one.
 * @param modelParameterSize Number of parameters in short form, such as {@code 8B}, {@code 7.6B} or {@code 560M};
 *     compared with the size ranges runtimes declare.
 * @param modelCapabilities What the model can do, e.g. {@code TEXT_TO_TEXT}, {@code IMAGE_TEXT_TO_TEXT},
 *     {@code EMBEDDING}, {@code TEXT_TO_IMAGE} or {@code AUDIO_TO_TEXT}.
 * @param apiCapabilities API operations the model can answer once served, e.g.
 *     {@code OPENAI_V1_CHAT_COMPLETIONS}. Informational: recorded for people and tools, not acted on.
 * @param modelConfiguration Summary of the model's own configuration (context length, hidden size, …) as arbitrary
 *     JSON.
 * @param storage Where the weights come from and which nodes keep a copy.
 * @param displayName Human-friendly name of the model. Informational: recorded for people and tools, not acted on.
 * @param version Version of the model.
 * @param vendor Publisher of the model, e.g. {@code meta}, {@code NVIDIA} or {@code HuggingFace}.
 * @param disabled When true the model may not be used by new inference services.
 * @param compartmentID Identifier of the tenant compartment the model belongs to. Informational: recorded for
 *     people and tools, not acted on.
 * @param servingMode Ways in which the model may be offered, such as {@code On-demand} (shared) or
 *     {@code Dedicated} (on reserved capacity). Informational: recorded for people and tools, not acted on.
 * @param maxTokens Context length: the largest number of tokens the model can handle in one sequence.
 * @param additionalMetadata Further descriptive key/value pairs.
 * @param diffusionPipeline For diffusion (image or video generation) models, the pipeline class and its components.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BaseModelSpec(
    ModelFormat modelFormat,
    String modelType,
    ModelFrameworkSpec modelFramework,
    String modelArchitecture,
    String quantization,
    String modelParameterSize,
    @SchemaPatch(Schemas.ATOMIC_LIST) List<String> modelCapabilities,
    @SchemaPatch(Schemas.ATOMIC_LIST) List<String> apiCapabilities,
    @SchemaPatch("{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true}") JsonNode modelConfiguration,
    @Required StorageSpec storage,
    String displayName,
    String version,
    String vendor,
    Boolean disabled,
    String compartmentID,
    @SchemaPatch(Schemas.ATOMIC_LIST) List<String> servingMode,
    Integer maxTokens,
    Map<String, String> additionalMetadata,
    DiffusionPipelineSpec diffusionPipeline) {
}
