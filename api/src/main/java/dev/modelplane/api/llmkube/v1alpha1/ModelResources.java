package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Pattern;

/**
 * CPU and memory a model needs; informational (the InferenceService's {@code resources} set the pod requests).
 *
 * @param cpu CPU as a quantity, for example {@code 2} or {@code 2000m}.
 * @param memory Memory as a quantity, for example {@code 4Gi}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModelResources(@Pattern(Patterns.QUANTITY) String cpu, @Pattern(Patterns.QUANTITY) String memory) {
}
