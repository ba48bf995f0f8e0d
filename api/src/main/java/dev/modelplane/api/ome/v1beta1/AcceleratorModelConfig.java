package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Min;
import java.util.List;
import java.util.Map;

/**
 * Adjustments to a runtime's containers when a model of this format runs on one accelerator class.
 *
 * @param minMemoryPerBillionParams Accelerator memory needed per billion model parameters, in GB; used to judge
 *     whether a model fits on the class. Recorded, not acted on: modelplane has no AcceleratorClass kind to match
 *     it against.
 * @param tensorParallelismOverride Parallelism degrees to use on this class; they replace the corresponding
 *     arguments of the main container's args (or command).
 * @param runtimeArgsOverride Arguments to set on the main container, e.g. {@code --max-num-seqs=256}. An argument
 *     already present (by flag name) is replaced in place; new ones are appended.
 * @param environmentOverride Environment variables to set (or replace) on the main container.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AcceleratorModelConfig(
    @Min(0) Long minMemoryPerBillionParams,
    TensorParallelismConfig tensorParallelismOverride,
    @SchemaPatch(Schemas.ATOMIC_LIST) List<String> runtimeArgsOverride,
    Map<String, String> environmentOverride) {
}
