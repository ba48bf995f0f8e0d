package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;

/**
 * The library a model was built for (e.g. {@code transformers}, {@code ONNXRuntime}, {@code TensorRTLLM}), as
 * declared by a model and matched by serving runtimes.
 *
 * @param name Library name.
 * @param version Library version as {@code major}, {@code major.minor} or {@code major.minor.patch}.
 * @param operator How a runtime's declared version is compared with the model's: {@code Equal} (default) or
 *     {@code GreaterThan}.
 * @param weight How much a match on this attribute counts when runtimes are ranked for a model; 1 by default.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModelFrameworkSpec(
    @Required String name,
    String version,
    @Default("Equal") String operator,
    @Default("1") Long weight) {
}
