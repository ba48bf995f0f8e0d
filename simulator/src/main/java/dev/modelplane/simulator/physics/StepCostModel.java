package dev.modelplane.simulator.physics;

import dev.modelplane.simulator.physics.ModelGeometry.Precision;
import java.util.ArrayList;
import java.util.List;

/**
 * How long one engine step takes for a model on a GPU (or a tensor-parallel group of them), from what is in the
 * step. Every GPU of the group does the same share of the work in lockstep, so the step is priced on one GPU:
 *
 * <ul>
 *   <li><b>matrix products</b>, per layer: the larger of streaming the layer's weights (plus the activations in and
 *       out) at {@link Calibration#weightStream} of the memory bandwidth, and 2 FLOPs per parameter per token at
 *       {@link Calibration#gemm} of the tensor-core peak — memory-bound for decode batches, compute-bound for
 *       prefill. A MoE layer streams only the experts its tokens were routed to (in expectation, for uniform
 *       routing);</li>
 *   <li><b>element-wise work</b> (norms, residual adds, activation function, attention input/output): bytes per token
 *       at the weight-streaming bandwidth;</li>
 *   <li><b>attention</b>: every cached token a decode or a prefill chunk attends to is read once from the KV cache
 *       at {@link Calibration#kvRead} of the bandwidth; prefill chunks add 4 × heads × head-dim FLOPs per
 *       (query, key) pair, causally, at {@link Calibration#attention} of the peak. A prefix-cache hit costs its
 *       reads, not its projections;</li>
 *   <li><b>tensor parallelism</b>: heads, intermediate size, experts and vocabulary are split across GPUs (KV heads
 *       are replicated when fewer than GPUs), and each layer adds two all-reduces of the hidden state;</li>
 *   <li><b>fixed cost</b> per layer: small for decode-only steps of at most 512 sequences, which vLLM replays from
 *       CUDA graphs, larger for steps that prefill (run eagerly);</li>
 *   <li>the <b>output projection</b> once per step, one row of logits per sequence.</li>
 * </ul>
 * Quantised weights shrink what is streamed; FP8 weights (W8A8) also run on FP8 tensor cores. The output projection
 * and the embeddings stay in 16 bits.
 */
public final class StepCostModel {
  /** vLLM's largest CUDA-graph capture size: decode batches up to this many sequences replay a graph. */
  static final int GRAPH_MAX_TOKENS = 512;
  private static final double ACT_BYTES = 2;
  private static final double GIB = 1L << 30;

  private final ModelGeometry geometry;
  private final Gpu gpu;
  private final int tp;
  private final Precision kvPrecision;
  private final Calibration cal;

  // Per GPU, per layer.
  private final double attnParams;
  private final double denseMlpParams;
  private final double expertParams;
  private final double moeFixedParams;
  private final double activeMlpIntermediate;
  private final double ioBytesPerToken;
  private final double elementwiseBytesPerToken;
  private final double kvBytesPerToken;
  private final double attnFlopsPerPair;
  private final double lmHeadParams;
  // Rates.
  private final double weightBandwidth;
  private final double kvBandwidth;
  private final double gemmFlops;
  private final double attnFlops;
  private final double allReduceLatency;
  private final double linkBandwidth;

  /**
   * @param geometry the model
   * @param gpu the GPU
   * @param tensorParallel GPUs the model is split across (1 for none)
   * @param kvPrecision the KV cache's number format, null for the model's 16-bit default
   * @param calibration sustained shares of the GPU's peaks
   */
  public StepCostModel(ModelGeometry geometry, Gpu gpu, int tensorParallel, Precision kvPrecision,
      Calibration calibration) {
    List<String> problems = problems(geometry, tensorParallel);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
    this.geometry = geometry;
    this.gpu = gpu;
    this.tp = tensorParallel;
    this.kvPrecision = kvPrecision == null ? geometry.defaultKvPrecision() : kvPrecision;
    this.cal = calibration;
    ModelGeometry g = geometry;
    int h = g.hidden();
    double headsPerGpu = (double) g.heads() / tp;
    double kvHeadsPerGpu = Math.max(1.0, (double) g.kvHeads() / tp);
    attnParams = g.mla() != null ? g.attentionParams() / tp
        : h * (headsPerGpu + 2 * kvHeadsPerGpu) * g.headDim() + headsPerGpu * g.headDim() * h;
    denseMlpParams = g.denseMlpParams() / tp;
    expertParams = g.expertParams() / tp;
    moeFixedParams = g.moe() == null ? 0 : 3.0 * h * g.moe().sharedIntermediate() / tp + (double) h * g.moe().experts();
    double denseI = (double) g.intermediate() / tp;
    double moeI = g.moe() == null ? 0
        : ((double) g.moe().active() * g.moe().expertIntermediate() + g.moe().sharedIntermediate()) / tp;
    activeMlpIntermediate = g.moe() == null ? denseI
        : (g.denseLayers() * denseI + g.moeLayers() * moeI) / g.layers();
    double attnIo = g.mla() != null ? headsPerGpu * (g.mla().nopeDim() + g.mla().ropeDim() + g.mla().valueDim())
        : (2 * headsPerGpu + 2 * kvHeadsPerGpu) * g.headDim();
    ioBytesPerToken = (4.0 * h + attnIo + 3 * activeMlpIntermediate) * ACT_BYTES;
    double permute = g.moe() == null ? 0 : 4.0 * g.moe().active() * h * g.moeLayers() / g.layers();
    elementwiseBytesPerToken = (10.0 * h + 5 * activeMlpIntermediate + attnIo + permute) * ACT_BYTES;
    kvBytesPerToken = g.mla() != null ? g.kvBytesPerTokenLayer(this.kvPrecision)
        : 2 * kvHeadsPerGpu * g.headDim() * this.kvPrecision.bytes();
    attnFlopsPerPair = g.mla() != null
        ? 2 * headsPerGpu * (g.mla().nopeDim() + g.mla().ropeDim() + g.mla().valueDim())
        : 4 * headsPerGpu * g.headDim();
    lmHeadParams = (double) g.vocab() * h / tp;
    weightBandwidth = gpu.memoryBandwidth() * cal.weightStream();
    kvBandwidth = gpu.memoryBandwidth() * cal.kvRead();
    gemmFlops = gpu.matmulFlops(g.weights()) * cal.gemm();
    attnFlops = gpu.bf16Flops() * cal.attention();
    allReduceLatency = gpu.nvlink() ? cal.allReduceNvlinkNanos() : cal.allReducePcieNanos();
    linkBandwidth = gpu.linkBandwidth() * cal.link();
  }

  /** What makes a geometry impossible to split {@code tensorParallel} ways (empty when it can be). */
  public static List<String> problems(ModelGeometry geometry, int tensorParallel) {
    List<String> p = new ArrayList<>();
    if (tensorParallel < 1) {
      p.add("tensor-parallel size must be >= 1, got " + tensorParallel);
    } else if (geometry.heads() % tensorParallel != 0) {
      p.add(geometry.name() + ": " + geometry.heads() + " attention heads are not divisible by tensor-parallel size "
          + tensorParallel);
    } else if (geometry.kvHeads() > tensorParallel && geometry.kvHeads() % tensorParallel != 0) {
      p.add(geometry.name() + ": " + geometry.kvHeads() + " KV heads are not divisible by tensor-parallel size "
          + tensorParallel);
    }
    return p;
  }

  public ModelGeometry geometry() {
    return geometry;
  }

  public Gpu gpu() {
    return gpu;
  }

  public int tensorParallel() {
    return tp;
  }

  public Precision kvPrecision() {
    return kvPrecision;
  }

  /** Bytes of KV cache one token takes on one GPU, all layers. */
  public double kvBytesPerToken() {
    return kvBytesPerToken * geometry.layers();
  }

  /** Model nanoseconds one step with this content takes; 0 for an empty step. */
  public double stepNanos(StepBatch b) {
    int n = b.tokens();
    if (n == 0) {
      return 0;
    }
    boolean graph = b.prefillTokens == 0 && n <= GRAPH_MAX_TOKENS;
    double perLayerShared = (b.decodeContext + b.prefillContext) * kvBytesPerToken / kvBandwidth
        + b.prefillPairs * attnFlopsPerPair / attnFlops
        + n * elementwiseBytesPerToken / weightBandwidth
        + (graph ? cal.layerGraphNanos() : cal.layerEagerNanos()) * 1e-9
        + allReduce(n);
    double t = geometry.layers() * perLayerShared;
    if (geometry.denseLayers() > 0) {
      t += geometry.denseLayers() * matmul(attnParams + denseMlpParams, attnParams + denseMlpParams, n);
    }
    if (geometry.moeLayers() > 0) {
      ModelGeometry.Moe moe = geometry.moe();
      double touched = moe.experts() * (1 - Math.pow(1 - (double) moe.active() / moe.experts(), n));
      double streamed = attnParams + moeFixedParams + touched * expertParams;
      double active = attnParams + moeFixedParams + moe.active() * expertParams;
      t += geometry.moeLayers() * matmul(streamed, active, n);
    }
    double lmBytes = lmHeadParams * ACT_BYTES;
    t += Math.max(lmBytes / weightBandwidth, 2 * lmHeadParams * b.sequences() / (gpu.bf16Flops() * cal.gemm()));
    return t * 1e9;
  }

  /** One layer's matrix products: {@code streamed} parameters read, {@code active} parameters used per token. */
  private double matmul(double streamed, double active, int tokens) {
    double bytes = streamed * geometry.weights().bytes() + tokens * ioBytesPerToken;
    return Math.max(bytes / weightBandwidth, 2 * active * tokens / gemmFlops);
  }

  private double allReduce(int tokens) {
    if (tp == 1) {
      return 0;
    }
    double bytes = (double) tokens * geometry.hidden() * ACT_BYTES;
    return 2 * (allReduceLatency * 1e-9 + 2.0 * (tp - 1) / tp * bytes / linkBandwidth);
  }

  /**
   * The memory arithmetic vLLM does at start-up, per GPU: of {@code utilization} × the GPU's memory, the weights and
   * a reserve for activations (the peak of a {@code maxBatchedTokens}-token step, FP32 logits for
   * {@code maxNumSeqs} sequences, CUDA graphs and library workspaces) are taken; the rest holds KV blocks.
   *
   * @throws IllegalArgumentException when not even one block is left (the model does not fit)
   */
  public Memory memory(double utilization, int blockSize, int maxBatchedTokens, int maxNumSeqs) {
    ModelGeometry g = geometry;
    double embeddings = (g.tiedEmbeddings() ? 1 : 2) * (double) g.vocab() * g.hidden();
    double weights = ((g.totalParams() - embeddings) * g.weights().bytes() + embeddings * ACT_BYTES) / tp;
    double perToken = ioBytesPerToken - 2.0 * g.hidden() * ACT_BYTES;
    double reserved = GIB + (double) maxBatchedTokens * perToken + (double) maxNumSeqs * g.vocab() * 8;
    double budget = gpu.memoryBytes() * utilization;
    double kv = budget - weights - reserved;
    double tokenBytes = kvBytesPerToken();
    long tokens = kv <= 0 ? 0 : (long) (kv / tokenBytes);
    int blocks = (int) Math.min(Integer.MAX_VALUE, tokens / blockSize);
    if (blocks < 1) {
      throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "%s does not fit on %s%s: %.1f GiB of "
          + "weights and %.1f GiB of activations per GPU leave no room for a KV cache in %.0f %% of its %.1f GiB; "
          + "use more GPUs (--tensor-parallel-size), a larger GPU, or quantised weights", g.name(), gpu.name(),
          tp > 1 ? " x" + tp : "", weights / GIB, reserved / GIB, utilization * 100, gpu.memoryBytes() / GIB));
    }
    return new Memory(weights, reserved, kv, tokens, blocks);
  }

  /**
   * Per-GPU memory at start-up.
   *
   * @param weightBytes this GPU's share of the weights
   * @param reservedBytes activation peak, logits, graphs and workspaces
   * @param kvBytes what is left for the KV cache
   * @param kvTokens tokens that fit in it
   * @param kvBlocks blocks that fit in it
   */
  public record Memory(double weightBytes, double reservedBytes, double kvBytes, long kvTokens, int kvBlocks) {
  }

  /** A step that prefills one whole prompt of {@code tokens} tokens from an empty cache, in milliseconds. */
  public double prefillMillis(int tokens) {
    return stepNanos(new StepBatch().prefill(tokens, 0)) / 1e6;
  }

  /** A decode step of {@code sequences} sequences, each attending to {@code context} cached tokens, in milliseconds. */
  public double decodeMillis(int sequences, int context) {
    StepBatch b = new StepBatch();
    for (int i = 0; i < sequences; i++) {
      b.decode(context);
    }
    return stepNanos(b) / 1e6;
  }
}
