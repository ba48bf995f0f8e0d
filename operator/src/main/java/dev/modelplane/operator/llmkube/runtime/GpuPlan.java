package dev.modelplane.operator.llmkube.runtime;

import dev.modelplane.api.llmkube.v1alpha1.Accelerator;
import dev.modelplane.api.llmkube.v1alpha1.GpuRuntime;
import dev.modelplane.api.llmkube.v1alpha1.GpuSharingMode;
import dev.modelplane.api.llmkube.v1alpha1.GpuSharingSpec;
import dev.modelplane.api.llmkube.v1alpha1.GpuSpec;
import dev.modelplane.api.llmkube.v1alpha1.GpuVendor;
import dev.modelplane.api.llmkube.v1alpha1.InferenceServiceSpec;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.ModelHardware;
import dev.modelplane.api.llmkube.v1alpha1.ShardingStrategy;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import java.util.List;

/**
 * The GPUs one inference pod gets, resolved from the Model's {@code spec.hardware} and the service's
 * {@code spec.resources.gpu}.
 *
 * @param count GPUs per pod: the Model's {@code hardware.gpu.count}, else the service's {@code resources.gpu}, else
 *     1 when the Model enables its GPU without a count, else 0
 * @param countSource the field the count came from (for messages)
 * @param resourceName the extended resource requested
 * @param vendor the GPU vendor
 * @param runtime the AMD compute stack (Vulkan or ROCm), or null
 * @param tolerationKey taint key tolerated (the resource name unless overridden)
 * @param layers llama.cpp layers to offload (99 when unset or -1)
 * @param strategy how several GPUs of one pod share the model
 * @param layerSplit per-GPU layer ranges such as {@code 0-24}, or empty
 * @param claims DRA resource claims, or empty
 */
public record GpuPlan(int count, String countSource, String resourceName, GpuVendor vendor, GpuRuntime runtime,
    String tolerationKey, int layers, ShardingStrategy strategy, List<String> layerSplit,
    List<PodResourceClaim> claims) {

  /** Every GPU extended resource the operator recognises in scheduler messages. */
  public static final List<String> KNOWN_RESOURCES = List.of("nvidia.com/gpu", "amd.com/gpu",
      "gpu.intel.com/i915", "gpu.intel.com/xe", "devic.es/dri-render");

  /** No GPU. */
  public static final GpuPlan NONE = new GpuPlan(0, null, "nvidia.com/gpu", GpuVendor.NVIDIA, null,
      "nvidia.com/gpu", 99, ShardingStrategy.LAYER, List.of(), List.of());

  /** The plan for a service and its (possibly absent) Model. */
  public static GpuPlan of(InferenceServiceSpec spec, Model model) {
    ModelHardware hardware = model == null ? null : model.getSpec().hardware();
    GpuSpec gpu = hardware == null ? null : hardware.gpu();
    int count = 0;
    String source = null;
    if (gpu != null && gpu.count() != null && gpu.count() > 0) {
      count = gpu.count();
      source = "Model spec.hardware.gpu.count";
    } else if (spec.resources() != null && spec.resources().gpu() != null && spec.resources().gpu() > 0) {
      count = spec.resources().gpu();
      source = "spec.resources.gpu";
    } else if (gpu != null && Boolean.TRUE.equals(gpu.enabled())) {
      count = 1;
      source = "Model spec.hardware.gpu.enabled";
    }
    GpuVendor vendor = gpu == null || gpu.vendor() == null ? GpuVendor.NVIDIA : gpu.vendor();
    GpuRuntime runtime = gpu == null ? null : gpu.runtime();
    if (runtime == null && hardware != null && vendor == GpuVendor.AMD) {
      runtime = hardware.accelerator() == Accelerator.VULKAN ? GpuRuntime.VULKAN
          : hardware.accelerator() == Accelerator.ROCM ? GpuRuntime.ROCM : null;
    }
    String resource = resourceName(gpu, vendor, runtime);
    String tolerationKey = gpu != null && gpu.tolerationKey() != null ? gpu.tolerationKey() : resource;
    GpuSharingSpec sharing = spec.resources() == null ? null : spec.resources().gpuSharing();
    if (sharing != null && sharing.mode() == GpuSharingMode.PARTITIONED && sharing.profile() != null
        && !sharing.profile().isBlank()) {
      resource = "nvidia.com/mig-" + sharing.profile();
      tolerationKey = gpu != null && gpu.tolerationKey() != null ? gpu.tolerationKey() : "nvidia.com/gpu";
    }
    int layers = gpu == null || gpu.layers() == null || gpu.layers() <= 0 ? 99 : gpu.layers();
    ShardingStrategy strategy = gpu == null || gpu.sharding() == null || gpu.sharding().strategy() == null
        ? ShardingStrategy.LAYER : gpu.sharding().strategy();
    List<String> split = gpu == null || gpu.sharding() == null || gpu.sharding().layerSplit() == null
        ? List.of() : List.copyOf(gpu.sharding().layerSplit());
    List<PodResourceClaim> claims = gpu == null || gpu.resourceClaims() == null ? List.of()
        : List.copyOf(gpu.resourceClaims());
    return new GpuPlan(count, source, resource, vendor, runtime, tolerationKey, layers, strategy, split, claims);
  }

  /** LLMKube's resource-name rule: override, AMD Vulkan/ROCm render device, AMD, Intel, else NVIDIA. */
  static String resourceName(GpuSpec gpu, GpuVendor vendor, GpuRuntime runtime) {
    if (gpu != null && gpu.resourceName() != null && !gpu.resourceName().isBlank()) {
      return gpu.resourceName();
    }
    return switch (vendor) {
      case AMD -> runtime != null ? "devic.es/dri-render" : "amd.com/gpu";
      case INTEL -> "gpu.intel.com/i915";
      case NVIDIA -> "nvidia.com/gpu";
    };
  }

  /** Whether the pod gets any GPU: a count or DRA claims. */
  public boolean present() {
    return count > 0 || !claims.isEmpty();
  }

  /** Whether GPUs are requested as an extended resource (not through DRA). */
  public boolean extendedResource() {
    return count > 0 && claims.isEmpty();
  }
}
