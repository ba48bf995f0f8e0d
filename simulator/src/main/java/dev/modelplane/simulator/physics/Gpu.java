package dev.modelplane.simulator.physics;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * One GPU model's datasheet figures (peak, dense, per GPU). What an engine sustains of them is {@link Calibration}'s
 * business.
 *
 * @param name short name used on the command line
 * @param product the name {@code nvidia-smi} and the device plugin's {@code nvidia.com/gpu.product} label show
 * @param memoryBandwidth HBM/GDDR bytes per second
 * @param bf16Flops dense BF16 tensor-core FLOP/s
 * @param fp8Flops dense FP8 tensor-core FLOP/s (0 where the GPU has no FP8 tensor cores)
 * @param memoryBytes memory the driver reports as total (slightly under the marketing figure)
 * @param linkBandwidth GPU-to-GPU bytes per second per direction for tensor-parallel all-reduce (NVLink, else PCIe)
 * @param nvlink whether GPUs talk over NVLink (vLLM's custom all-reduce) rather than PCIe (NCCL)
 */
public record Gpu(String name, String product, double memoryBandwidth, double bf16Flops, double fp8Flops,
    long memoryBytes, double linkBandwidth, boolean nvlink) {

  private static final long MIB = 1L << 20;

  /** NVIDIA H100 80GB HBM3 (SXM5): the GPU the calibration was measured on. */
  public static final Gpu H100 = new Gpu("h100", "NVIDIA H100 80GB HBM3", 3.35e12, 989.4e12, 1978.9e12,
      81_559 * MIB, 450e9, true);

  private static final Gpu[] ALL = {
      H100,
      new Gpu("h200", "NVIDIA H200", 4.8e12, 989.4e12, 1978.9e12, 143_771 * MIB, 450e9, true),
      new Gpu("a100", "NVIDIA A100-SXM4-80GB", 2.039e12, 312e12, 0, 81_920 * MIB, 300e9, true),
      new Gpu("l40s", "NVIDIA L40S", 864e9, 362e12, 733e12, 46_068 * MIB, 32e9, false),
      new Gpu("l4", "NVIDIA L4", 300e9, 121e12, 242.5e12, 23_034 * MIB, 32e9, false),
  };

  /** Every GPU in the table, in a stable order. */
  public static List<Gpu> all() {
    return List.of(ALL);
  }

  /** Names joined by ", ". */
  public static String names() {
    return Arrays.stream(ALL).map(Gpu::name).collect(Collectors.joining(", "));
  }

  /** Looks a GPU up by its short name (case-insensitive). */
  public static Gpu byName(String name) {
    for (Gpu g : ALL) {
      if (g.name.equalsIgnoreCase(name.trim())) {
        return g;
      }
    }
    throw new IllegalArgumentException("unknown GPU \"" + name + "\"; known: " + names());
  }

  /**
   * The GPU a product name denotes, as the NVIDIA device plugin labels nodes ({@code NVIDIA-H100-80GB-HBM3}) or
   * {@code nvidia-smi} prints it; null when it is none of the table's.
   */
  public static Gpu byProduct(String product) {
    if (product == null) {
      return null;
    }
    String p = product.toLowerCase(Locale.ROOT).replace('-', ' ').replace('_', ' ');
    if (p.contains("h200") || p.contains("gh200")) {
      return byName("h200");
    }
    if (p.contains("h100")) {
      return H100;
    }
    if (p.contains("a100")) {
      return byName("a100");
    }
    if (p.contains("l40s")) {
      return byName("l40s");
    }
    if (p.matches(".*\\bl4\\b.*")) {
      return byName("l4");
    }
    return null;
  }

  /** Peak FLOP/s of matrix products at {@code weights} precision (FP8 tensor cores only for FP8 models). */
  public double matmulFlops(ModelGeometry.Precision weights) {
    return weights.fp8Compute() && fp8Flops > 0 ? fp8Flops : bf16Flops;
  }

  /**
   * vLLM's default token budget per step for its OpenAI server: 8,192 on GPUs with at least 70 GiB that are not
   * A100s, else 2,048 (vLLM's EngineArgs batch defaults).
   */
  public int defaultMaxNumBatchedTokens() {
    return largeDefaults() ? 8192 : 2048;
  }

  /** vLLM's default running-sequence limit: 1,024 on the same GPUs, else 256. */
  public int defaultMaxNumSeqs() {
    return largeDefaults() ? 1024 : 256;
  }

  private boolean largeDefaults() {
    return memoryBytes >= 70L * (1L << 30) && !name.equals("a100");
  }
}
