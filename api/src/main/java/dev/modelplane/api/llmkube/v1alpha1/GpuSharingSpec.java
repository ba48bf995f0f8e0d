package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * How the service consumes its GPU. A serving decision rather than a property of the Model, so the same Model can run
 * on whole GPUs in one place and shared in another. Unset means exclusive.
 *
 * @param mode The sharing tier; {@code exclusive} by default.
 * @param profile Name of the hardware partition, only with (and required by) {@code partitioned}. Vendor-specific;
 *     for NVIDIA MIG it is the device plugin's profile name such as {@code 1g.24gb}, and the pod requests the extended
 *     resource {@code nvidia.com/mig-<profile>}.
 * @param memoryLimitGiB GPU memory this service counts as using, in GiB, at least 1; only with {@code shared}. Counted
 *     against a GPUQuota's memory cap but not enforced at run time: nothing stops the process from using more.
 *     Recorded, not acted on: modelplane has no GPUQuota kind that would count it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.mode) || self.mode != 'partitioned' || (has(self.profile) && "
    + "self.profile.size() > 0)",
    message = "profile is required when mode is partitioned")
@ValidationRule(value = "!has(self.profile) || self.profile.size() == 0 || (has(self.mode) && self.mode == "
    + "'partitioned')",
    message = "profile is only valid when mode is partitioned")
@ValidationRule(value = "!has(self.memoryLimitGiB) || (has(self.mode) && self.mode == 'shared')",
    message = "memoryLimitGiB is only valid when mode is shared")
public record GpuSharingSpec(
    @Default("exclusive") GpuSharingMode mode,
    String profile,
    @Min(1) Integer memoryLimitGiB) {
}
