package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;

/**
 * Facts about the server being benchmarked, stored with the results so that runs can be filtered and compared.
 *
 * @param engine Model-server software: {@code vLLM}, {@code SGLang} or {@code TGI}.
 * @param version Version of that software, e.g. {@code 0.8.5}.
 * @param gpuType Accelerator model: {@code H100}, {@code A100}, {@code MI300} or {@code A10}.
 * @param gpuCount Number of accelerators the server uses; at least 1.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ServiceMetadata(
    @Required ServerEngine engine,
    @Required String version,
    @Required GpuType gpuType,
    @Required @Min(1) Integer gpuCount) {
}
