package dev.modelplane.common.servers;

/**
 * Flags of llama.cpp's {@code llama-server} (one model, or router mode over a models directory), spelled once for the
 * operator's llama.cpp renderers and serving modes and the dev cluster's simulator plan, which reads them back from a
 * pod's command line. A constant is named after its flag: {@code --ctx-size} is {@code CTX_SIZE}, its short form
 * {@code -c} is {@code C}.
 */
public final class LlamaServerFlags {
  public static final String A = "-a";
  public static final String ALIAS = "--alias";
  public static final String B = "-b";
  public static final String BATCH_SIZE = "--batch-size";
  public static final String C = "-c";
  public static final String CACHE_RAM = "--cache-ram";
  public static final String CACHE_TYPE_K = "--cache-type-k";
  public static final String CACHE_TYPE_V = "--cache-type-v";
  public static final String CMOE = "-cmoe";
  public static final String CPU_MOE = "--cpu-moe";
  public static final String CRAM = "-cram";
  public static final String CTK = "-ctk";
  public static final String CTV = "-ctv";
  public static final String CTX_SIZE = "--ctx-size";
  public static final String EMBEDDING = "--embedding";
  public static final String EMBEDDINGS = "--embeddings";
  public static final String FA = "-fa";
  public static final String FLASH_ATTN = "--flash-attn";
  public static final String GPU_LAYERS = "--gpu-layers";
  public static final String HF = "-hf";
  public static final String HF_REPO = "--hf-repo";
  public static final String HFR = "-hfr";
  public static final String HOST = "--host";
  public static final String JINJA = "--jinja";
  public static final String M = "-m";
  public static final String MD = "-md";
  public static final String METRICS = "--metrics";
  public static final String MM = "-mm";
  public static final String MMPROJ = "--mmproj";
  public static final String MODEL = "--model";
  public static final String MODEL_DRAFT = "--model-draft";
  public static final String MODELS_DIR = "--models-dir";
  public static final String N_CPU_MOE = "--n-cpu-moe";
  public static final String N_GPU_LAYERS = "--n-gpu-layers";
  public static final String NCMOE = "-ncmoe";
  public static final String NGL = "-ngl";
  public static final String NKVO = "-nkvo";
  public static final String NO_KV_OFFLOAD = "--no-kv-offload";
  public static final String NO_WARMUP = "--no-warmup";
  public static final String NP = "-np";
  public static final String OVERRIDE_KV = "--override-kv";
  public static final String OVERRIDE_TENSOR = "--override-tensor";
  public static final String PARALLEL = "--parallel";
  public static final String POOLING = "--pooling";
  public static final String PORT = "--port";
  public static final String REASONING_BUDGET = "--reasoning-budget";
  public static final String REASONING_BUDGET_MESSAGE = "--reasoning-budget-message";
  public static final String RERANK = "--rerank";
  public static final String RERANKING = "--reranking";
  public static final String ROPE_SCALE = "--rope-scale";
  public static final String ROPE_SCALING = "--rope-scaling";
  public static final String S = "-s";
  public static final String SEED = "--seed";
  public static final String SM = "-sm";
  public static final String SPEC_DRAFT_N_MAX = "--spec-draft-n-max";
  public static final String SPEC_DRAFT_P_MIN = "--spec-draft-p-min";
  public static final String SPEC_TYPE = "--spec-type";
  public static final String SPLIT_MODE = "--split-mode";
  public static final String TENSOR_SPLIT = "--tensor-split";
  public static final String TS = "-ts";
  public static final String UB = "-ub";
  public static final String UBATCH_SIZE = "--ubatch-size";
  public static final String YARN_ORIG_CTX = "--yarn-orig-ctx";

  private LlamaServerFlags() {
  }
}
