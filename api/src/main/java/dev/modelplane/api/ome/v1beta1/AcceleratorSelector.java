package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The accelerator (GPU) class a component runs on. Classes are names here (modelplane has no AcceleratorClass
 * kind): a named class is recorded in the component's status and only serving runtimes whose
 * {@code acceleratorRequirements.acceleratorClasses} list it are selected; its runtime overrides
 * ({@code acceleratorConfig}) apply. Node selectors and resources come from the component and runtime themselves.
 *
 * @param acceleratorClass Name of the accelerator class to use.
 * @param constraints Requirements a class must meet when none is named. Recorded, not acted on: modelplane has no
 *     AcceleratorClass kind to match it against.
 * @param policy How to pick among the classes that meet the constraints. Recorded, not acted on: modelplane has no
 *     AcceleratorClass kind to match it against.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AcceleratorSelector(
    String acceleratorClass,
    AcceleratorConstraints constraints,
    AcceleratorSelectionPolicy policy) {
}
