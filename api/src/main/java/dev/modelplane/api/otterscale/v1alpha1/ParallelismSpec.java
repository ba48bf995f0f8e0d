package dev.modelplane.api.otterscale.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;

/**
 * vLLM parallelism inside one pod. Each degree above 1 is passed to vLLM as its flag; a pod asks for
 * {@code tensor × dataLocal} accelerators.
 *
 * @param tensor Tensor-parallel size: over how many accelerators one copy of the model is sharded. 1 by default.
 * @param data Data-parallel size: how many copies of the model serve side by side. 1 by default.
 * @param dataLocal Local data-parallel size: how many of the data-parallel copies run in this pod. 1 by default.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ParallelismSpec(
    @Default("1") @Min(1) Integer tensor,
    @Default("1") @Min(1) Integer data,
    @Default("1") @Min(1) Integer dataLocal) {
}
