package dev.modelplane.api.ome.v1beta1;

/** Accelerator model behind a benchmarked endpoint, recorded with the results. */
public enum GpuType {
  /** NVIDIA H100. */
  H100,
  /** NVIDIA A100. */
  A100,
  /** AMD Instinct MI300. */
  MI300,
  /** NVIDIA A10. */
  A10
}
