package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Min;

/**
 * Degrees of model parallelism for one accelerator class.
 *
 * @param tensorParallelSize Number of accelerators each layer is split across (e.g. {@code --tp-size},
 *     {@code --tensor-parallel-size}).
 * @param pipelineParallelSize Number of pipeline stages the layers are split into (e.g. {@code --pp-size},
 *     {@code --pipeline-parallel-size}).
 * @param dataParallelSize Number of data-parallel replicas of the model.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TensorParallelismConfig(
    @Min(0) Long tensorParallelSize,
    @Min(0) Long pipelineParallelSize,
    @Min(0) Long dataParallelSize) {
}
