package dev.modelplane.common.servers;

/**
 * Flags of vLLM's OpenAI server ({@code vllm serve}), spelled once for every place that writes or reads them: the
 * operator's vLLM renderer and llm-d engine containers, the OME accelerator overrides and LoRA flags, the dev
 * cluster's simulator plan, which reads them back from a pod's command line, and the simulator, which takes those
 * it shares with vLLM under vLLM's names. A constant is named after its flag: {@code --tensor-parallel-size} is
 * {@code TENSOR_PARALLEL_SIZE}, its short form {@code -tp} is {@code TP}.
 */
public final class VllmFlags {
  public static final String ATTENTION_BACKEND = "--attention-backend";
  public static final String BLOCK_SIZE = "--block-size";
  public static final String CPU_OFFLOAD_GB = "--cpu-offload-gb";
  public static final String DATA_PARALLEL_SIZE = "--data-parallel-size";
  public static final String DATA_PARALLEL_SIZE_LOCAL = "--data-parallel-size-local";
  public static final String DTYPE = "--dtype";
  public static final String ENABLE_CHUNKED_PREFILL = "--enable-chunked-prefill";
  public static final String ENABLE_EXPERT_PARALLEL = "--enable-expert-parallel";
  public static final String ENABLE_LORA = "--enable-lora";
  public static final String ENABLE_PREFIX_CACHING = "--enable-prefix-caching";
  public static final String GPU_MEMORY_UTILIZATION = "--gpu-memory-utilization";
  public static final String HOST = "--host";
  public static final String KV_CACHE_DTYPE = "--kv-cache-dtype";
  public static final String KV_EVENTS_CONFIG = "--kv-events-config";
  /** vLLM's OTLP traces collector (an llm_request span per request). */
  public static final String OTLP_TRACES_ENDPOINT = "--otlp-traces-endpoint";
  public static final String LORA_MODULES = "--lora-modules";
  public static final String MAX_CPU_LORAS = "--max-cpu-loras";
  public static final String MAX_LORAS = "--max-loras";
  public static final String MAX_MODEL_LEN = "--max-model-len";
  public static final String MAX_NUM_BATCHED_TOKENS = "--max-num-batched-tokens";
  public static final String MAX_NUM_SEQS = "--max-num-seqs";
  public static final String MODEL = "--model";
  public static final String NO_ENABLE_CHUNKED_PREFILL = "--no-enable-chunked-prefill";
  public static final String NO_ENABLE_PREFIX_CACHING = "--no-enable-prefix-caching";
  public static final String PIPELINE_PARALLEL_SIZE = "--pipeline-parallel-size";
  public static final String PORT = "--port";
  public static final String PREFIX_CACHING_HASH_ALGO = "--prefix-caching-hash-algo";
  public static final String Q = "-q";
  public static final String QUANTIZATION = "--quantization";
  public static final String REVISION = "--revision";
  public static final String SEED = "--seed";
  public static final String SERVED_MODEL_NAME = "--served-model-name";
  public static final String SPECULATIVE_CONFIG = "--speculative-config";
  public static final String TENSOR_PARALLEL_SIZE = "--tensor-parallel-size";
  public static final String TOKENIZER = "--tokenizer";
  public static final String TP = "-tp";
  public static final String UVICORN_LOG_LEVEL = "--uvicorn-log-level";

  private VllmFlags() {
  }
}
