package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * A service-level objective for the service. When the controller runs with Pyrra support enabled it creates a Pyrra
 * {@code ServiceLevelObjective} in the same namespace, from which Pyrra derives recording and alerting rules; Pyrra
 * must be installed in the cluster.
 *
 * @param name Name of the objective in Pyrra and Grafana; {@code <service name>-<indicator>} when unset.
 * @param indicator What is measured; {@code availability} by default.
 * @param objective Target percentage, a decimal number from 50 to 99.999 written as a string (for example
 *     {@code "99.5"}), passed to Pyrra unchanged.
 * @param latencyThreshold Request duration in seconds, a decimal number as a string (for example {@code "0.5"}), that
 *     a request must beat to count as good. Required with {@code indicator: latency}; it must be a bucket boundary of
 *     the runtime's latency histogram.
 * @param window Rolling window the objective is measured over: a whole number followed by {@code m}, {@code h},
 *     {@code d} or {@code w}; {@code 28d} by default.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "self.indicator != 'latency' || has(self.latencyThreshold)",
    message = "latencyThreshold is required when indicator is latency")
public record SloSpec(
    String name,
    @Default("availability") SloIndicator indicator,
    @Required
    @Pattern("^[0-9]+(\\.[0-9]+)?$")
    @ValidationRule(value = "double(self) >= 50.0 && double(self) <= 99.999",
        message = "objective must be a number between 50 and 99.999")
    String objective,
    @Pattern("^[0-9]+(\\.[0-9]+)?$") String latencyThreshold,
    @Pattern("^[0-9]+[mhdw]$") @Default("28d") String window) {
}
