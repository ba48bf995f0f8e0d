package dev.modelplane.operator.llmkube.runtime;

import dev.modelplane.api.llmkube.v1alpha1.VllmConfig;
import dev.modelplane.api.llmkube.v1alpha1.VllmKvCacheDtype;
import dev.modelplane.api.llmkube.v1alpha1.VllmSpeculativeConfig;
import dev.modelplane.common.servers.VllmFlags;
import dev.modelplane.operator.common.EnumValues;
import dev.modelplane.operator.llmkube.runtime.ArgList.Flag;
import io.fabric8.kubernetes.api.model.EnvVar;
import java.util.List;

/**
 * vLLM's OpenAI server ({@code vllm serve}). Argv order:
 *
 * <ol>
 *   <li>the model (staged path or Hugging Face id) and {@code --revision} for a pinned id</li>
 *   <li>{@code --port <p> --host :: --served-model-name <modelRef>}</li>
 *   <li>{@code vllmConfig} in declaration order: {@code --tensor-parallel-size} (above 1), {@code --max-model-len},
 *       {@code --quantization}, {@code --dtype}, {@code --kv-cache-dtype} (custom wins, {@code auto} emits nothing),
 *       {@code --enable-prefix-caching}, {@code --enable-chunked-prefill}, {@code --max-num-batched-tokens},
 *       {@code --attention-backend}, {@code --speculative-config}, {@code --enable-expert-parallel}, then with a GPU
 *       {@code --cpu-offload-gb} and {@code --gpu-memory-utilization}</li>
 *   <li>{@code --tensor-parallel-size <gpus>} when the pod has several GPUs and none was set</li>
 *   <li>{@code --max-num-seqs <parallelSlots>}, then {@code extraArgs}</li>
 * </ol>
 *
 * <p>No {@code --enable-metrics}: vLLM serves {@code /metrics} by default and rejects the flag.
 */
public final class VllmRenderer implements RuntimeRenderer {
  public static final VllmRenderer INSTANCE = new VllmRenderer();
  public static final String IMAGE = "vllm/vllm-openai:v0.25.1";

  static final Flag PORT = new Flag(VllmFlags.PORT);
  static final Flag HOST = new Flag(VllmFlags.HOST);
  static final Flag REVISION = new Flag(VllmFlags.REVISION);
  static final Flag SERVED_NAME = new Flag(VllmFlags.SERVED_MODEL_NAME);
  static final Flag TP = new Flag(VllmFlags.TENSOR_PARALLEL_SIZE, VllmFlags.TP);
  static final Flag MAX_MODEL_LEN = new Flag(VllmFlags.MAX_MODEL_LEN);
  static final Flag QUANTIZATION = new Flag(VllmFlags.QUANTIZATION, VllmFlags.Q);
  static final Flag DTYPE = new Flag(VllmFlags.DTYPE);
  static final Flag KV_CACHE_DTYPE = new Flag(VllmFlags.KV_CACHE_DTYPE);
  static final Flag PREFIX_CACHING = new Flag(VllmFlags.ENABLE_PREFIX_CACHING, VllmFlags.NO_ENABLE_PREFIX_CACHING);
  static final Flag CHUNKED_PREFILL = new Flag(VllmFlags.ENABLE_CHUNKED_PREFILL, VllmFlags.NO_ENABLE_CHUNKED_PREFILL);
  static final Flag MAX_BATCHED_TOKENS = new Flag(VllmFlags.MAX_NUM_BATCHED_TOKENS);
  static final Flag ATTENTION_BACKEND = new Flag(VllmFlags.ATTENTION_BACKEND);
  static final Flag SPECULATIVE = new Flag(VllmFlags.SPECULATIVE_CONFIG);
  static final Flag EXPERT_PARALLEL = new Flag(VllmFlags.ENABLE_EXPERT_PARALLEL);
  static final Flag CPU_OFFLOAD = new Flag(VllmFlags.CPU_OFFLOAD_GB);
  static final Flag GPU_MEMORY = new Flag(VllmFlags.GPU_MEMORY_UTILIZATION);
  static final Flag MAX_NUM_SEQS = new Flag(VllmFlags.MAX_NUM_SEQS);

  private VllmRenderer() {
  }

  @Override
  public String runtimeName() {
    return "vllm";
  }

  @Override
  public String containerName() {
    return "vllm";
  }

  @Override
  public int defaultPort() {
    return 8000;
  }

  @Override
  public boolean usesModelInit() {
    return true;
  }

  @Override
  public String defaultHpaMetric() {
    return "vllm:num_requests_running";
  }

  @Override
  public String image(RuntimeInput in) {
    return RuntimeRenderer.pickImage(in, IMAGE);
  }

  @Override
  public List<String> runtimeCommand() {
    return List.of("vllm", "serve");
  }

  @Override
  public boolean serviceLinks() {
    return false;
  }

  @Override
  public int listenPort(RuntimeInput in) {
    return RuntimeRenderer.listenPortFrom(in, PORT, defaultPort());
  }

  @Override
  public List<String> args(RuntimeInput in) {
    ServerSpec spec = in.spec();
    ArgList args = new ArgList(in.extraArgs());
    ModelArgument.of(in.model()).addPositional(args, REVISION);
    args.option(PORT, Integer.toString(in.configuredPort(defaultPort())));
    args.option(HOST, in.bindAddress());
    args.option(SERVED_NAME, in.modelRef());
    VllmConfig config = spec.vllm();
    boolean tpSet = false;
    if (config != null) {
      tpSet = config.tensorParallelSize() != null;
      if (config.tensorParallelSize() != null && config.tensorParallelSize() > 1) {
        args.option(TP, config.tensorParallelSize().toString());
      }
      if (config.maxModelLen() != null) {
        args.option(MAX_MODEL_LEN, config.maxModelLen().toString());
      }
      if (config.quantization() != null) {
        args.option(QUANTIZATION, EnumValues.of(config.quantization()));
      }
      if (config.dtype() != null) {
        args.option(DTYPE, EnumValues.of(config.dtype()));
      }
      String kv = config.kvCacheCustomDtype() != null && !config.kvCacheCustomDtype().isBlank()
          ? config.kvCacheCustomDtype()
          : config.kvCacheDtype() == null || config.kvCacheDtype() == VllmKvCacheDtype.AUTO ? null
          : EnumValues.of(config.kvCacheDtype());
      if (kv != null) {
        args.option(KV_CACHE_DTYPE, kv);
      }
      if (Boolean.TRUE.equals(config.enablePrefixCaching())) {
        args.toggle(PREFIX_CACHING);
      }
      if (Boolean.TRUE.equals(config.enableChunkedPrefill())) {
        args.toggle(CHUNKED_PREFILL);
      }
      if (config.maxNumBatchedTokens() != null) {
        args.option(MAX_BATCHED_TOKENS, config.maxNumBatchedTokens().toString());
      }
      if (config.attentionBackend() != null) {
        args.option(ATTENTION_BACKEND, EnumValues.of(config.attentionBackend()));
      }
      String speculative = speculativeConfig(config.speculative());
      if (speculative != null) {
        args.option(SPECULATIVE, speculative);
      }
      if (Boolean.TRUE.equals(config.enableExpertParallel())) {
        args.toggle(EXPERT_PARALLEL);
      }
      if (in.gpu().present() && config.cpuOffloadGB() != null) {
        args.option(CPU_OFFLOAD, config.cpuOffloadGB().toString());
      }
      if (in.gpu().present() && config.gpuMemoryUtilization() != null) {
        args.option(GPU_MEMORY, config.gpuMemoryUtilization().toString());
      }
    }
    if (!tpSet && in.gpu().count() > 1) {
      args.option(TP, Integer.toString(in.gpu().count()));
    }
    if (spec.parallelSlots() != null) {
      args.option(MAX_NUM_SEQS, spec.parallelSlots().toString());
    }
    args.extraArgs();
    return args.build();
  }

  /**
   * The {@code --speculative-config} JSON for an enabled draft model, or null (disabled, or enabled without a model:
   * the validator reports that as {@code spec.vllmConfig.speculative.model}).
   */
  static String speculativeConfig(VllmSpeculativeConfig speculative) {
    if (speculative == null || !Boolean.TRUE.equals(speculative.enabled()) || speculative.model() == null
        || speculative.model().isBlank()) {
      return null;
    }
    int tokens = speculative.numSpeculativeTokens() == null ? 4 : speculative.numSpeculativeTokens();
    return "{\"model\":\"" + speculative.model().replace("\\", "\\\\").replace("\"", "\\\"")
        + "\",\"num_speculative_tokens\":" + tokens + "}";
  }

  @Override
  public List<EnvVar> runtimeEnv(RuntimeInput in) {
    VllmConfig config = in.spec().vllm();
    return RuntimeRenderer.secretEnv("HF_TOKEN", config == null ? null : config.hfTokenSecretRef());
  }

  @Override
  public Probes probes(int port) {
    return Probes.http("/health", port);
  }
}
