package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * One metric the autoscaler tracks, with its target.
 *
 * @param type {@code Pods} for a custom per-pod metric or {@code Resource} for CPU or memory utilisation.
 * @param name The metric: a custom metric name such as {@code llamacpp:requests_processing} for {@code Pods}, or a
 *     resource name such as {@code cpu} for {@code Resource}.
 * @param targetAverageValue Target average per pod, as a quantity such as {@code 2} or {@code 500m}. Required for
 *     {@code Pods} metrics.
 * @param targetAverageUtilization Target utilisation in percent of the pods' requests, at least 1. Required for
 *     {@code Resource} metrics.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "self.type != 'Pods' || has(self.targetAverageValue)",
    message = "targetAverageValue is required for a Pods metric", fieldPath = ".targetAverageValue",
    reason = "FieldValueRequired")
@ValidationRule(value = "self.type != 'Resource' || has(self.targetAverageUtilization)",
    message = "targetAverageUtilization is required for a Resource metric", fieldPath = ".targetAverageUtilization",
    reason = "FieldValueRequired")
public record AutoscalingMetric(
    @Required MetricSourceType type,
    @Required String name,
    @Pattern(Patterns.QUANTITY) String targetAverageValue,
    @Min(1) Integer targetAverageUtilization) {
}
