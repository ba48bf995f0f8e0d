package dev.modelplane.operator.modelsource;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.api.ome.v1beta1.ModelFormat;
import dev.modelplane.api.ome.v1beta1.ModelFrameworkSpec;
import java.util.List;

/**
 * What a model's own files say about it, in the terms of a BaseModel's spec. Each field is null when the files do
 * not tell; {@link ModelMetadataPatch} fills only the spec fields that are empty.
 *
 * @param modelType {@code model_type}, or {@code diffusers} for a diffusers pipeline
 * @param modelArchitecture {@code architectures[0]}, or the pipeline's class name
 * @param maxTokens the context length
 * @param modelFramework {@code transformers} with {@code transformers_version}, or {@code diffusers} with its version
 * @param modelFormat {@code safetensors} {@code 1.0.0} when safetensors weights are present, or {@code diffusers}
 * @param quantization {@code int4} or {@code fp8}, as OME maps {@code quantization_config}
 * @param modelCapabilities what the model does, e.g. {@code [TEXT_TO_TEXT]}
 * @param modelParameterSize the parameter count in OME's short form, e.g. {@code 7.62B}
 * @param parameterCount the parameter count and whether it was counted or estimated
 * @param modelConfiguration OME's summary of the configuration (context length, dtype, size…)
 */
public record ModelMetadata(
    String modelType,
    String modelArchitecture,
    Integer maxTokens,
    ModelFrameworkSpec modelFramework,
    ModelFormat modelFormat,
    String quantization,
    List<String> modelCapabilities,
    String modelParameterSize,
    ParameterCount parameterCount,
    JsonNode modelConfiguration) {
  public ModelMetadata {
    modelCapabilities = modelCapabilities == null ? null : List.copyOf(modelCapabilities);
  }
}
