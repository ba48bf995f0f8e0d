package dev.modelplane.simulator.physics;

/**
 * What an engine sustains of a GPU's datasheet: shares of peak bandwidth and throughput, and fixed costs per layer.
 * These are properties of kernels on hardware, not of any one model, so one set serves every model geometry.
 *
 * <p>{@link #H100} was fitted to Llama-3.1-8B measured kernel by kernel on one H100 80GB (28 points, prefill eager,
 * decode replayed from CUDA graphs; see docs/simulator.md): the fit is within 1 % at the median and 4 % at worst.
 * One pair is not separable on a single model — the share of bandwidth streaming weights and the per-layer fixed
 * cost trade against each other at one size — so the weight-streaming share is set to 0.80 (what large GEMV kernels
 * reach on HBM3) and the per-layer cost fitted beside it. The all-reduce figures are datasheet-level assumptions
 * (no multi-GPU measurement here): vLLM's custom all-reduce over NVLink, NCCL over PCIe.
 *
 * @param weightStream share of peak memory bandwidth reached streaming weights and activations
 * @param kvRead share of peak memory bandwidth reached by decode attention reading the KV cache
 * @param gemm share of peak tensor-core throughput reached by large matrix products
 * @param attention share of peak tensor-core throughput reached by prefill (flash) attention, causal FLOPs counted
 * @param layerGraphNanos fixed cost of one layer when the step is replayed from a CUDA graph (pure decode steps)
 * @param layerEagerNanos fixed cost of one layer when the step runs eagerly (steps that prefill)
 * @param allReduceNvlinkNanos latency of one small all-reduce over NVLink
 * @param allReducePcieNanos latency of one small all-reduce over PCIe
 * @param link share of the GPU-to-GPU bandwidth an all-reduce reaches
 */
public record Calibration(double weightStream, double kvRead, double gemm, double attention, double layerGraphNanos,
    double layerEagerNanos, double allReduceNvlinkNanos, double allReducePcieNanos, double link) {

  /** Fitted on the measured Llama-3.1-8B / H100 table. */
  public static final Calibration H100 = new Calibration(0.80, 0.69535, 0.76595, 0.31463, 39_472, 84_703,
      8_000, 30_000, 0.80);
}
