package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;

/**
 * Compute resources of each inference pod. CPU and memory become requests (no limits); GPUs become a limit on the
 * vendor's extended resource.
 *
 * @param cpu CPU request as a quantity, for example {@code 2} or {@code 2000m}.
 * @param memory Memory request as a quantity, for example {@code 4Gi}.
 * @param hostMemory System RAM needed when weights or KV cache live in RAM ({@code moeCPUOffload},
 *     {@code noKvOffload}), as a quantity such as {@code 64Gi}. Becomes the memory request and wins over
 *     {@code memory}, so the scheduler places the pod on a node with enough RAM instead of it being killed after the
 *     model loads.
 * @param gpu GPUs per pod, 0 to 8. Used when the Model does not set {@code hardware.gpu.count}; how a model is split
 *     across several GPUs is configured on the Model.
 * @param gpuMemory GPU memory each pod needs, as a quantity such as {@code 16Gi}. Informational: recorded, not
 *     acted on (scheduling goes by GPU count; no check reads it).
 * @param ephemeralStorage Node-local disk each pod may use, as a quantity such as {@code 40Gi}; becomes both the
 *     request and the limit of {@code ephemeral-storage}, and the size limit of the {@code emptyDir} that weights go to
 *     with {@code modelCache.persistence: Ephemeral}. Allow for the model plus a partial download. No default.
 * @param gpuSharing Whether the GPU is used whole, as a hardware partition or shared with other workloads; whole GPUs
 *     when unset.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InferenceResources(
    @Pattern(Patterns.QUANTITY) String cpu,
    @Pattern(Patterns.QUANTITY) String memory,
    @Pattern(Patterns.QUANTITY) String hostMemory,
    @Min(0) @Max(8) Integer gpu,
    @Pattern(Patterns.QUANTITY) String gpuMemory,
    @Pattern(Patterns.UPSTREAM_QUANTITY) String ephemeralStorage,
    GpuSharingSpec gpuSharing) {
}
