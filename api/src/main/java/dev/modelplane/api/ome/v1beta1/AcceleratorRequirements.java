package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Min;
import java.util.List;

/**
 * The accelerators a serving runtime works on. When an InferenceService asks for accelerator classes (by
 * annotation, {@code acceleratorSelector} or a component's {@code acceleratorOverride}), only runtimes listing all
 * of them are selected.
 *
 * @param acceleratorClasses Names of the AcceleratorClasses the runtime supports.
 * @param minMemory Smallest accelerator memory the runtime needs, in GB. Recorded, not acted on: modelplane has no
 *     AcceleratorClass kind to match it against.
 * @param minComputePerformanceTFLOPS Smallest compute performance the runtime needs, in TFLOPS. Recorded, not
 *     acted on: modelplane has no AcceleratorClass kind to match it against.
 * @param minArchitectureVersion Lowest architecture version the runtime needs, e.g. an NVIDIA compute capability
 *     such as {@code 8.0}. Recorded, not acted on: modelplane has no AcceleratorClass kind to match it against.
 * @param requiredFeatures Accelerator features the runtime needs, e.g. {@code nvlink}. Recorded, not acted on:
 *     modelplane has no AcceleratorClass kind to match it against.
 * @param preferredPrecisions Numeric precisions the runtime prefers, most preferred first, e.g. {@code fp8}.
 *     Recorded, not acted on: modelplane has no AcceleratorClass kind to match it against.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AcceleratorRequirements(
    @SchemaPatch(Schemas.ATOMIC_LIST) List<String> acceleratorClasses,
    @Min(0) Long minMemory,
    @Min(0) Long minComputePerformanceTFLOPS,
    String minArchitectureVersion,
    @SchemaPatch(Schemas.ATOMIC_LIST) List<String> requiredFeatures,
    @SchemaPatch(Schemas.ATOMIC_LIST) List<String> preferredPrecisions) {
}
