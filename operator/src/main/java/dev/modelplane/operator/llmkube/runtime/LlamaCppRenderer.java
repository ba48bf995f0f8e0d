package dev.modelplane.operator.llmkube.runtime;

import dev.modelplane.api.llmkube.v1alpha1.GpuRuntime;
import dev.modelplane.api.llmkube.v1alpha1.GpuVendor;
import dev.modelplane.api.llmkube.v1alpha1.RopeScaling;
import dev.modelplane.api.llmkube.v1alpha1.ShardingStrategy;
import dev.modelplane.api.llmkube.v1alpha1.SpeculativeDecoding;
import dev.modelplane.api.llmkube.v1alpha1.SpeculativeDecodingType;
import dev.modelplane.common.servers.LlamaServerFlags;
import dev.modelplane.operator.common.EnumValues;
import dev.modelplane.operator.modelsource.ModelLayout;
import dev.modelplane.operator.llmkube.runtime.ArgList.Flag;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * llama.cpp's {@code llama-server}. The argv order is LLMKube's, plus {@code --alias}, which LLMKube does not pass,
 * and is a contract (documented in {@code docs/operator.md}):
 *
 * <ol>
 *   <li>{@code --model <path> --port <p>} ({@code --hf-repo <id>} for a Hugging Face id resolved by the server)</li>
 *   <li>{@code --host <bindAddress|::>}</li>
 *   <li>{@code --alias <modelRef>}: the server answers to, and lists in {@code /v1/models}, the Model's name rather
 *   than its file's path, as the vLLM and SGLang servers do with {@code --served-model-name}</li>
 *   <li>with a GPU: {@code --n-gpu-layers}, and with several GPUs {@code --split-mode} and {@code --tensor-split}</li>
 *   <li>{@code --ctx-size}, {@code --rope-scaling [--rope-scale] [--yarn-orig-ctx]}, {@code --parallel}</li>
 *   <li>{@code --flash-attn on} (GPU only), {@code --jinja}, {@code --cache-type-k}, {@code --cache-type-v}</li>
 *   <li>{@code --cpu-moe}, {@code --n-cpu-moe}, {@code --no-kv-offload}, one {@code --override-tensor} each</li>
 *   <li>{@code --batch-size}, {@code --ubatch-size}, {@code --no-warmup}</li>
 *   <li>{@code --spec-type}, {@code -md <draft>}, {@code --spec-draft-n-max}, {@code --spec-draft-p-min}</li>
 *   <li>{@code --reasoning-budget [--reasoning-budget-message]}, {@code --mmproj}, one {@code --override-kv} each</li>
 *   <li>embedding or rerank mode flags</li>
 *   <li>{@code extraArgs} verbatim, then {@code --metrics}</li>
 * </ol>
 *
 * <p>A typed flag is left out when {@code extraArgs} names it (any spelling: {@code -a} counts as {@code --alias});
 * repeatable flags ({@code --override-tensor}, {@code --override-kv}) are always kept.
 */
public final class LlamaCppRenderer implements LlamaServerRenderer {
  public static final LlamaCppRenderer INSTANCE = new LlamaCppRenderer();

  /** CPU build of llama-server. */
  public static final String IMAGE_CPU = "ghcr.io/ggml-org/llama.cpp:server";
  /** CUDA build, for Models with an NVIDIA GPU. */
  public static final String IMAGE_CUDA = "ghcr.io/ggml-org/llama.cpp:server-cuda-b10068";
  /** LLMKube's validated Vulkan build, for AMD GPUs with the Vulkan runtime. */
  public static final String IMAGE_VULKAN = "ghcr.io/defilantech/llmkube-llama-vulkan@sha256:"
      + "cbab8af682ecac9b5c865d85219d808dc356814326c70346e05b8b20b333e295";
  /** LLMKube's validated ROCm build, for AMD GPUs with the ROCm runtime. */
  public static final String IMAGE_ROCM = "ghcr.io/defilantech/llmkube-llama-rocm@sha256:"
      + "8da16041a18b4f03f0be4de5e064be97ba8937149091d6693ee09711da362849";

  static final Flag MODEL = new Flag(LlamaServerFlags.MODEL, LlamaServerFlags.M);
  static final Flag ALIAS = new Flag(LlamaServerFlags.ALIAS, LlamaServerFlags.A);
  static final Flag HF_REPO = new Flag(LlamaServerFlags.HF_REPO, LlamaServerFlags.HF, LlamaServerFlags.HFR);
  static final Flag GPU_LAYERS = new Flag(LlamaServerFlags.N_GPU_LAYERS, LlamaServerFlags.NGL,
      LlamaServerFlags.GPU_LAYERS);
  static final Flag SPLIT_MODE = new Flag(LlamaServerFlags.SPLIT_MODE, LlamaServerFlags.SM);
  static final Flag TENSOR_SPLIT = new Flag(LlamaServerFlags.TENSOR_SPLIT, LlamaServerFlags.TS);
  static final Flag CTX_SIZE = new Flag(LlamaServerFlags.CTX_SIZE, LlamaServerFlags.C);
  static final Flag ROPE_SCALING = new Flag(LlamaServerFlags.ROPE_SCALING);
  static final Flag PARALLEL = new Flag(LlamaServerFlags.PARALLEL, LlamaServerFlags.NP);
  static final Flag FLASH_ATTN = new Flag(LlamaServerFlags.FLASH_ATTN, LlamaServerFlags.FA);
  static final Flag JINJA = new Flag(LlamaServerFlags.JINJA);
  static final Flag CACHE_TYPE_K = new Flag(LlamaServerFlags.CACHE_TYPE_K, LlamaServerFlags.CTK);
  static final Flag CACHE_TYPE_V = new Flag(LlamaServerFlags.CACHE_TYPE_V, LlamaServerFlags.CTV);
  static final Flag CPU_MOE = new Flag(LlamaServerFlags.CPU_MOE, LlamaServerFlags.CMOE);
  static final Flag N_CPU_MOE = new Flag(LlamaServerFlags.N_CPU_MOE, LlamaServerFlags.NCMOE);
  static final Flag NO_KV_OFFLOAD = new Flag(LlamaServerFlags.NO_KV_OFFLOAD, LlamaServerFlags.NKVO);
  static final Flag BATCH = new Flag(LlamaServerFlags.BATCH_SIZE, LlamaServerFlags.B);
  static final Flag UBATCH = new Flag(LlamaServerFlags.UBATCH_SIZE, LlamaServerFlags.UB);
  static final Flag NO_WARMUP = new Flag(LlamaServerFlags.NO_WARMUP);
  static final Flag REASONING_BUDGET = new Flag(LlamaServerFlags.REASONING_BUDGET);
  static final Flag REASONING_MESSAGE = new Flag(LlamaServerFlags.REASONING_BUDGET_MESSAGE);
  static final Flag MMPROJ = new Flag(LlamaServerFlags.MMPROJ, LlamaServerFlags.MM);
  static final Flag EMBEDDING = new Flag(LlamaServerFlags.EMBEDDING, LlamaServerFlags.EMBEDDINGS);
  static final Flag RERANKING = new Flag(LlamaServerFlags.RERANKING, LlamaServerFlags.RERANK);
  static final Flag POOLING = new Flag(LlamaServerFlags.POOLING);
  static final Flag CACHE_RAM = new Flag(LlamaServerFlags.CACHE_RAM, LlamaServerFlags.CRAM);
  static final Flag SPEC_TYPE = new Flag(LlamaServerFlags.SPEC_TYPE);
  static final Flag MODEL_DRAFT = new Flag(LlamaServerFlags.MD, LlamaServerFlags.MODEL_DRAFT);
  static final Flag SPEC_N_MAX = new Flag(LlamaServerFlags.SPEC_DRAFT_N_MAX);
  static final Flag SPEC_P_MIN = new Flag(LlamaServerFlags.SPEC_DRAFT_P_MIN);

  private LlamaCppRenderer() {
  }

  @Override
  public String runtimeName() {
    return "llamacpp";
  }

  @Override
  public boolean usesModelInit() {
    return true;
  }

  @Override
  public String image(RuntimeInput in) {
    GpuPlan gpu = in.gpu();
    String fallback = IMAGE_CPU;
    if (gpu.present() && gpu.vendor() == GpuVendor.AMD && gpu.runtime() == GpuRuntime.VULKAN) {
      fallback = IMAGE_VULKAN;
    } else if (gpu.present() && gpu.vendor() == GpuVendor.AMD && gpu.runtime() == GpuRuntime.ROCM) {
      fallback = IMAGE_ROCM;
    } else if (gpu.present() && gpu.vendor() == GpuVendor.NVIDIA) {
      fallback = IMAGE_CUDA;
    }
    return RuntimeRenderer.pickImage(in, fallback);
  }

  @Override
  public List<String> args(RuntimeInput in) {
    LlamaCppOptions spec = in.spec().llamaCpp();
    ArgList args = new ArgList(in.extraArgs());
    if (in.model().staging() == ModelLayout.Staging.RUNTIME) {
      args.option(HF_REPO, in.model().modelPath());
    } else {
      args.option(MODEL, in.model().modelPath());
    }
    addListenAddress(args, in);
    if (in.modelRef() != null && !in.modelRef().isBlank()) {
      args.option(ALIAS, in.modelRef());
    }
    gpuArgs(in.gpu(), args);
    if (spec.contextSize() != null) {
      args.option(CTX_SIZE, spec.contextSize().toString());
    }
    ropeScaling(spec.ropeScaling(), args);
    if (in.spec().parallelSlots() != null) {
      args.option(PARALLEL, in.spec().parallelSlots().toString());
    }
    if (Boolean.TRUE.equals(spec.flashAttention()) && in.gpu().present()) {
      args.option(FLASH_ATTN, "on");
    }
    if (Boolean.TRUE.equals(spec.jinja())) {
      args.toggle(JINJA);
    }
    String cacheK = spec.cacheTypeK();
    if (cacheK != null) {
      args.option(CACHE_TYPE_K, cacheK);
    }
    String cacheV = spec.cacheTypeV();
    if (cacheV != null) {
      args.option(CACHE_TYPE_V, cacheV);
    }
    if (Boolean.TRUE.equals(spec.moeCPUOffload())) {
      args.toggle(CPU_MOE);
    }
    if (spec.moeCPULayers() != null && spec.moeCPULayers() > 0) {
      args.option(N_CPU_MOE, spec.moeCPULayers().toString());
    }
    if (Boolean.TRUE.equals(spec.noKvOffload())) {
      args.toggle(NO_KV_OFFLOAD);
    }
    for (String override : nonNull(spec.tensorOverrides())) {
      args.always(LlamaServerFlags.OVERRIDE_TENSOR, override);
    }
    if (spec.batchSize() != null) {
      args.option(BATCH, spec.batchSize().toString());
    }
    if (spec.uBatchSize() != null) {
      args.option(UBATCH, spec.uBatchSize().toString());
    }
    if (Boolean.TRUE.equals(spec.noWarmup())) {
      args.toggle(NO_WARMUP);
    }
    speculative(in, args);
    if (spec.reasoningBudget() != null) {
      args.option(REASONING_BUDGET, spec.reasoningBudget().toString());
      if (spec.reasoningBudgetMessage() != null && !spec.reasoningBudgetMessage().isEmpty()) {
        args.option(REASONING_MESSAGE, spec.reasoningBudgetMessage());
      }
    }
    if (in.model().mmprojPath() != null) {
      args.option(MMPROJ, in.model().mmprojPath());
    }
    for (String override : nonNull(spec.metadataOverrides())) {
      args.always(LlamaServerFlags.OVERRIDE_KV, override);
    }
    switch (in.mode()) {
      case EMBEDDING -> args.toggle(EMBEDDING).option(POOLING, "last").option(CACHE_RAM, "0");
      case RERANK -> args.toggle(RERANKING).toggle(EMBEDDING).option(POOLING, "rank").option(CACHE_RAM, "0");
      case CHAT -> {
      }
    }
    args.extraArgs();
    args.toggle(METRICS);
    return args.build();
  }

  /**
   * {@code --spec-type} (aliases {@code mtp} → {@code draft-mtp}, {@code draft} → {@code draft-simple}; none or
   * disabled pass nothing), {@code -md <draft path>}, {@code --spec-draft-n-max}, {@code --spec-draft-p-min}.
   */
  private static void speculative(RuntimeInput in, ArgList args) {
    SpeculativeDecoding sd = in.spec().llamaCpp().speculativeDecoding();
    if (sd == null || sd.type() == null || sd.type() == SpeculativeDecodingType.NONE
        || sd.type() == SpeculativeDecodingType.DISABLED) {
      return;
    }
    String type = switch (sd.type()) {
      case MTP -> "draft-mtp";
      case DRAFT -> "draft-simple";
      default -> EnumValues.of(sd.type());
    };
    args.option(SPEC_TYPE, type);
    if (in.draftModelPath() != null) {
      args.option(MODEL_DRAFT, in.draftModelPath());
    }
    if (sd.nDraftMax() != null) {
      args.option(SPEC_N_MAX, sd.nDraftMax().toString());
    }
    if (sd.pMin() != null) {
      args.option(SPEC_P_MIN, sd.pMin().toString());
    }
  }

  private static void gpuArgs(GpuPlan gpu, ArgList args) {
    if (!gpu.present()) {
      return;
    }
    args.option(GPU_LAYERS, Integer.toString(gpu.layers()));
    if (gpu.count() > 1) {
      String mode = switch (gpu.strategy()) {
        case TENSOR, ROW -> "row";
        case NONE -> "none";
        case LAYER, PIPELINE -> "layer";
      };
      args.option(SPLIT_MODE, mode);
      if (gpu.strategy() != ShardingStrategy.NONE) {
        args.option(TENSOR_SPLIT, tensorSplit(gpu.count(), gpu.layerSplit()));
      }
    }
  }

  /**
   * {@code --tensor-split} ratios: the layer counts of {@code layerSplit} ranges reduced by their greatest common
   * divisor ({@code 0-24,25-39} → {@code 5,3}), or equal shares when the split is absent or does not match the GPU
   * count.
   */
  public static String tensorSplit(int gpus, List<String> layerSplit) {
    List<Long> sizes = parseSplit(layerSplit);
    if (sizes == null || sizes.size() != gpus) {
      return String.join(",", java.util.Collections.nCopies(gpus, "1"));
    }
    BigInteger gcd = BigInteger.ZERO;
    for (long size : sizes) {
      gcd = gcd.gcd(BigInteger.valueOf(size));
    }
    long divisor = gcd.longValue();
    List<String> ratios = new ArrayList<>();
    for (long size : sizes) {
      ratios.add(Long.toString(size / divisor));
    }
    return String.join(",", ratios);
  }

  /** Layer counts of {@code start-end} ranges, or null when any range is malformed. */
  public static List<Long> parseSplit(List<String> layerSplit) {
    if (layerSplit == null || layerSplit.isEmpty()) {
      return null;
    }
    List<Long> sizes = new ArrayList<>();
    for (String range : layerSplit) {
      String[] ends = range.trim().split("-");
      if (ends.length != 2) {
        return null;
      }
      try {
        long start = Long.parseLong(ends[0].trim());
        long end = Long.parseLong(ends[1].trim());
        if (start < 0 || end < start) {
          return null;
        }
        sizes.add(end - start + 1);
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return sizes;
  }

  private static void ropeScaling(RopeScaling rope, ArgList args) {
    if (rope == null || rope.type() == null || args.inExtraArgs(ROPE_SCALING.spellings())) {
      return;
    }
    args.always(ROPE_SCALING.name(), EnumValues.of(rope.type()));
    if (rope.factor() != null && !rope.factor().isBlank()) {
      args.option(new Flag(LlamaServerFlags.ROPE_SCALE), rope.factor());
    }
    if (rope.originalContext() != null) {
      args.option(new Flag(LlamaServerFlags.YARN_ORIG_CTX), rope.originalContext().toString());
    }
  }


  private static List<String> nonNull(List<String> list) {
    return list == null ? List.of() : list;
  }
}
