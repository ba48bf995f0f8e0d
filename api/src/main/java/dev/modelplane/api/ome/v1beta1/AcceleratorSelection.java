package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;
import java.util.Map;

/**
 * The accelerator class chosen for a component and what it implies for the component's pods.
 *
 * @param acceleratorClass Name of the chosen AcceleratorClass.
 * @param reason Why this class was chosen.
 * @param nodeSelector Node labels added to the component's pods for this class.
 * @param resourceRequests Resources requested per pod for this class, by resource name (e.g.
 *     {@code nvidia.com/gpu}), as quantities.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AcceleratorSelection(
    @Required String acceleratorClass,
    String reason,
    Map<String, String> nodeSelector,
    Map<String, String> resourceRequests) {
}
