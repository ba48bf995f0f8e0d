package dev.modelplane.common.servers;

/**
 * Flags of SGLang's server ({@code python3 -m sglang.launch_server}), spelled once for the operator's SGLang renderer,
 * the OME accelerator overrides and LoRA flags, and the dev cluster's simulator plan, which reads them back from a
 * pod's command line. SGLang takes several spellings of its parallel sizes; each is here. A constant is named after
 * its flag: {@code --tp-size} is {@code TP_SIZE}.
 */
public final class SglangFlags {
  public static final String ATTENTION_BACKEND = "--attention-backend";
  public static final String CHAT_TEMPLATE = "--chat-template";
  public static final String CHUNKED_PREFILL_SIZE = "--chunked-prefill-size";
  public static final String CONTEXT_LENGTH = "--context-length";
  public static final String DATA_PARALLEL_SIZE = "--data-parallel-size";
  public static final String DP = "--dp";
  public static final String DP_SIZE = "--dp-size";
  public static final String ENABLE_LORA = "--enable-lora";
  public static final String ENABLE_METRICS = "--enable-metrics";
  public static final String ENABLE_PREFIX_CACHING = "--enable-prefix-caching";
  public static final String EP = "--ep";
  public static final String EP_SIZE = "--ep-size";
  public static final String EXPERT_PARALLEL_SIZE = "--expert-parallel-size";
  public static final String HOST = "--host";
  public static final String IS_EMBEDDING = "--is-embedding";
  public static final String KV_CACHE_DTYPE = "--kv-cache-dtype";
  public static final String LOG_LEVEL = "--log-level";
  public static final String LORA_PATHS = "--lora-paths";
  public static final String LORA_TARGET_MODULES = "--lora-target-modules";
  public static final String MAX_LORA_RANK = "--max-lora-rank";
  public static final String MAX_LORAS_PER_BATCH = "--max-loras-per-batch";
  public static final String MAX_RUNNING_REQUESTS = "--max-running-requests";
  public static final String MEM_FRACTION_STATIC = "--mem-fraction-static";
  public static final String MODEL = "--model";
  public static final String MODEL_PATH = "--model-path";
  public static final String PAGE_SIZE = "--page-size";
  public static final String PIPELINE_PARALLEL_SIZE = "--pipeline-parallel-size";
  public static final String PORT = "--port";
  public static final String PP = "--pp";
  public static final String PP_SIZE = "--pp-size";
  public static final String QUANTIZATION = "--quantization";
  public static final String RANDOM_SEED = "--random-seed";
  public static final String REASONING_PARSER = "--reasoning-parser";
  public static final String REVISION = "--revision";
  public static final String SERVED_MODEL_NAME = "--served-model-name";
  public static final String SKIP_TOKENIZER_INIT = "--skip-tokenizer-init";
  public static final String SPECULATIVE_ACCEPT_THRESHOLD_ACC = "--speculative-accept-threshold-acc";
  public static final String SPECULATIVE_ACCEPT_THRESHOLD_SINGLE = "--speculative-accept-threshold-single";
  public static final String SPECULATIVE_ALGORITHM = "--speculative-algorithm";
  public static final String SPECULATIVE_DRAFT_MODEL_PATH = "--speculative-draft-model-path";
  public static final String SPECULATIVE_EAGLE_TOPK = "--speculative-eagle-topk";
  public static final String SPECULATIVE_NUM_DRAFT_TOKENS = "--speculative-num-draft-tokens";
  public static final String SPECULATIVE_NUM_STEPS = "--speculative-num-steps";
  public static final String TENSOR_PARALLEL_SIZE = "--tensor-parallel-size";
  public static final String TOOL_CALL_PARSER = "--tool-call-parser";
  public static final String TP = "--tp";
  public static final String TP_SIZE = "--tp-size";
  public static final String TRUST_REMOTE_CODE = "--trust-remote-code";

  private SglangFlags() {
  }
}
