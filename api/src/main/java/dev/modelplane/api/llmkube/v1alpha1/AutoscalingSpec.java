package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;

/**
 * Horizontal autoscaling of an InferenceService. The controller creates a HorizontalPodAutoscaler (autoscaling/v2)
 * for the service's Deployment and deletes it when this block is removed; {@code spec.replicas} then only sets the
 * starting size.
 *
 * @param minReplicas Fewest pods the autoscaler keeps, 1 to 10; 1 by default. Must not exceed {@code maxReplicas}.
 * @param maxReplicas Most pods the autoscaler may run, 1 to 100.
 * @param metrics What to scale on. When empty, the runtime's own busy-request metric (for llama.cpp
 *     {@code llamacpp:requests_processing}) with an average of 2 per pod.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.minReplicas) || self.minReplicas <= self.maxReplicas",
    message = "spec.autoscaling.minReplicas must not be greater than spec.autoscaling.maxReplicas",
    fieldPath = ".minReplicas")
public record AutoscalingSpec(
    @Min(1) @Max(10) @Default("1") Integer minReplicas,
    @Required @Min(1) @Max(100) Integer maxReplicas,
    List<AutoscalingMetric> metrics) {
}
