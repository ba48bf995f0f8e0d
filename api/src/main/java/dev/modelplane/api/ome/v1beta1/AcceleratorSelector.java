package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Chooses the accelerator (GPU) class a component runs on: either by naming an {@code AcceleratorClass} or by
 * constraints from which one is picked. The chosen class's node selector and resources are applied to the
 * component's pods, and serving runtimes whose {@code acceleratorRequirements} exclude it are not selected.
 *
 * @param acceleratorClass Name of the AcceleratorClass to use. When set, {@code constraints} and {@code policy}
 *     are not needed.
 * @param constraints Requirements a class must meet when none is named.
 * @param policy How to pick among the classes that meet the constraints.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AcceleratorSelector(
    String acceleratorClass,
    AcceleratorConstraints constraints,
    AcceleratorSelectionPolicy policy) {
}
