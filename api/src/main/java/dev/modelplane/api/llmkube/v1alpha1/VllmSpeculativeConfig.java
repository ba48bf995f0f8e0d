package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

/**
 * Speculative decoding with a smaller draft model, which can make single-stream generation markedly faster.
 *
 * @param enabled Turns speculative decoding on; when false or unset none of the other fields has an effect.
 * @param model The draft model as vLLM takes it: a Hugging Face id or a path inside the container, passed as the
 *     {@code model} of {@code --speculative-config} (it is not looked up as a Model object, so nothing downloads it
 *     for vLLM). Needed when {@code enabled} is true; without it speculative decoding is skipped and the service
 *     reports a warning condition instead of failing.
 * @param numSpeculativeTokens Draft tokens proposed per step, 1 to 16; 4 by default
 *     ({@code --num-speculative-tokens}). 3 to 5 usually works best; more wastes work when the draft is wrong.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record VllmSpeculativeConfig(
    Boolean enabled,
    String model,
    @Min(1) @Max(16) @Default("4") Integer numSpeculativeTokens) {
}
