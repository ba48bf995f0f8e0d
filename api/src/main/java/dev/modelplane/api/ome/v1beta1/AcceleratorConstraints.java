package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;

/**
 * Requirements an accelerator class must meet to be picked for a component.
 *
 * @param minMemory Smallest acceptable memory per accelerator, in GB. Recorded, not acted on: modelplane has no
 *     AcceleratorClass kind to match it against.
 * @param maxMemory Largest acceptable memory per accelerator, in GB; not less than {@code minMemory}. Recorded,
 *     not acted on: modelplane has no AcceleratorClass kind to match it against.
 * @param minComputePerformanceTFLOPS Smallest acceptable compute performance, in TFLOPS. Recorded, not acted on:
 *     modelplane has no AcceleratorClass kind to match it against.
 * @param minArchitectureVersion Lowest acceptable architecture version, e.g. an NVIDIA compute capability such as
 *     {@code 8.0}. Recorded, not acted on: modelplane has no AcceleratorClass kind to match it against.
 * @param requiredFeatures Features the class must offer, e.g. {@code nvlink} or {@code fp8}. Recorded, not acted
 *     on: modelplane has no AcceleratorClass kind to match it against.
 * @param excludedClasses Accelerator classes never to pick, by name. Recorded, not acted on: modelplane has no
 *     AcceleratorClass kind to match it against.
 * @param architectureFamilies Acceptable architecture families, e.g. {@code nvidia-hopper} or {@code
 *     nvidia-ampere}. Recorded, not acted on: modelplane has no AcceleratorClass kind to match it against.
 * @param preferredPrecisions Numeric precisions the workload prefers, e.g. {@code fp8} or {@code bf16}, most
 *     preferred first. Recorded, not acted on: modelplane has no AcceleratorClass kind to match it against.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.minMemory) || !has(self.maxMemory) || self.minMemory <= self.maxMemory",
    message = "minMemory must not exceed maxMemory")
public record AcceleratorConstraints(
    @Min(0) Long minMemory,
    @Min(0) Long maxMemory,
    @Min(0) Long minComputePerformanceTFLOPS,
    String minArchitectureVersion,
    @SchemaPatch(Schemas.ATOMIC_LIST) List<String> requiredFeatures,
    @SchemaPatch(Schemas.ATOMIC_LIST) List<String> excludedClasses,
    @SchemaPatch(Schemas.ATOMIC_LIST) List<String> architectureFamilies,
    @SchemaPatch(Schemas.ATOMIC_LIST) List<String> preferredPrecisions) {
}
