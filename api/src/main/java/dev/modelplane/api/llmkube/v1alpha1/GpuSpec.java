package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import java.util.List;

/**
 * GPUs a model needs and how they are requested from Kubernetes: either as an extended resource (by vendor or
 * {@code resourceName}) or through Dynamic Resource Allocation claims, not both.
 *
 * @param enabled Whether the model runs on GPUs.
 * @param count GPUs per pod, 0 to 8. Wins over the InferenceService's {@code resources.gpu}; more than one splits the
 *     model as {@code sharding} says.
 * @param memory GPU memory needed per GPU, as a quantity such as {@code 16Gi}; informational.
 * @param vendor GPU vendor; {@code nvidia} by default. Decides the extended resource requested unless
 *     {@code resourceName} is set.
 * @param resourceName Extended resource to request instead of the vendor's, written {@code domain/name} (for example a
 *     MIG slice or {@code squat.ai/dri-render} from a generic device plugin). Also the key of the generated GPU
 *     toleration unless {@code tolerationKey} is set. Cannot be combined with {@code resourceClaims}.
 * @param tolerationKey Taint key to tolerate on GPU nodes, written {@code domain/name}; by default the GPU resource
 *     name.
 * @param runtime GPU compute stack for AMD GPUs with llama.cpp: {@code vulkan} or {@code rocm} select LLMKube's
 *     matching llama.cpp image and the shared DRI render device resource. Unset means {@code amd.com/gpu} with the
 *     vendor-neutral image. Ignored for other vendors and runtimes.
 * @param layers Layers offloaded to the GPUs (llama.cpp {@code --n-gpu-layers}), at least -1; -1 or unset offloads
 *     all of them.
 * @param sharding How the model is split when a pod has several GPUs.
 * @param resourceClaims Dynamic Resource Allocation claims for the GPUs, at most 16, each naming exactly one of a
 *     ResourceClaim or a ResourceClaimTemplate. Cannot be combined with {@code resourceName}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!(has(self.resourceName) && has(self.resourceClaims) && self.resourceClaims.size() > 0)",
    message = "resourceName and resourceClaims are mutually exclusive: request GPUs either as an extended resource "
        + "or through DRA claims")
public record GpuSpec(
    Boolean enabled,
    @Min(0) @Max(8) Integer count,
    @Pattern(Patterns.QUANTITY) String memory,
    @Default("nvidia") GpuVendor vendor,
    @Pattern("^[a-z0-9.\\-]+/[a-z0-9._\\-]+$") String resourceName,
    @Pattern("^[a-z0-9.\\-]+/[a-z0-9._\\-]+$") String tolerationKey,
    GpuRuntime runtime,
    @Min(-1) Integer layers,
    GpuSharding sharding,
    @Size(max = 16)
    @SchemaPatch("{\"items\":{\"required\":[\"name\"]}}")
    @ValidationRule(value = "self.all(c, has(c.resourceClaimName) != has(c.resourceClaimTemplateName))",
        message = "each resource claim must set exactly one of resourceClaimName and resourceClaimTemplateName")
    List<PodResourceClaim> resourceClaims) {
}
