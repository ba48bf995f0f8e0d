package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/**
 * RoPE scaling, which lets llama.cpp serve a model past its trained context (for example a 128K model at 256K with
 * YaRN). Typed here so that it is validated, instead of raw {@code extraArgs}.
 *
 * @param type Scaling method (llama.cpp {@code --rope-scaling}).
 * @param factor Context multiplier as a decimal string such as {@code 2.0} (llama.cpp {@code --rope-scale}). A
 *     string so that the value is passed exactly as written.
 * @param originalContext The model's trained context length in tokens, at least 128 (llama.cpp
 *     {@code --yarn-orig-ctx}), for example 131072 for a 128K model. Recommended with {@code yarn}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RopeScaling(
    @Required RopeScalingType type,
    @Pattern("^[0-9]+(\\.[0-9]+)?$") String factor,
    @Min(128) Integer originalContext) {
}
