package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;

/**
 * Hardware a model is served on.
 *
 * @param accelerator Kind of acceleration; {@code cpu} by default. {@code metal} hands the model to the Apple Silicon
 *     host agent instead of a Deployment.
 * @param gpu GPU requirements.
 * @param memoryBudget Memory the model process may use on the Apple Silicon host agent, as a quantity such as
 *     {@code 24Gi}. Wins over {@code memoryFraction} and the agent's own setting. Recorded, not acted on:
 *     modelplane runs no Apple Silicon host agent.
 * @param memoryFraction Share of the host's memory the model process may use on the Apple Silicon host agent, 0 to 1.
 *     Wins over the agent's own setting but not over {@code memoryBudget}. Recorded, not acted on: modelplane runs
 *     no Apple Silicon host agent.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModelHardware(
    @Default("cpu") Accelerator accelerator,
    GpuSpec gpu,
    @Pattern(Patterns.QUANTITY) String memoryBudget,
    @Min(0) @Max(1) Double memoryFraction) {
}
