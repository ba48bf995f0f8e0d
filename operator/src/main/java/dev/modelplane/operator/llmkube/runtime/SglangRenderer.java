package dev.modelplane.operator.llmkube.runtime;

import dev.modelplane.api.llmkube.v1alpha1.GpuVendor;
import dev.modelplane.api.llmkube.v1alpha1.SglangConfig;
import dev.modelplane.api.llmkube.v1alpha1.SglangKvCacheDtype;
import dev.modelplane.api.llmkube.v1alpha1.SglangLoraAdapter;
import dev.modelplane.api.llmkube.v1alpha1.SglangSpeculativeConfig;
import dev.modelplane.common.servers.SglangFlags;
import dev.modelplane.operator.common.EnumValues;
import dev.modelplane.operator.llmkube.runtime.ArgList.Flag;
import io.fabric8.kubernetes.api.model.EnvVar;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SGLang ({@code python3 -m sglang.launch_server}). Argv order:
 *
 * <ol>
 *   <li>{@code --model-path <path|id>} ({@code --revision} for a pinned id), {@code --host}, {@code --port},
 *       {@code --enable-metrics} (SGLang serves {@code /metrics} only with it)</li>
 *   <li>{@code --served-model-name <modelRef>}</li>
 *   <li>{@code sglangConfig}: {@code --tp}, {@code --ep}, {@code --dp}, {@code --context-length},
 *       {@code --mem-fraction-static} (GPU only), {@code --chunked-prefill-size}, {@code --max-running-requests}
 *       (else {@code parallelSlots}), {@code --quantization}, {@code --kv-cache-dtype} (custom wins, {@code auto}
 *       emits nothing), {@code --attention-backend}, {@code --enable-prefix-caching}, {@code --tool-call-parser},
 *       {@code --reasoning-parser}, {@code --chat-template}, the speculative flags, {@code --lora-paths},
 *       {@code --max-lora-rank}, {@code --lora-target-modules}, {@code --trust-remote-code},
 *       {@code --skip-tokenizer-init}, {@code --log-level}</li>
 *   <li>{@code --tp <gpus>} when the pod has several GPUs and none was set; {@code --is-embedding} in embedding
 *       mode</li>
 *   <li>{@code extraArgs}</li>
 * </ol>
 */
public final class SglangRenderer implements RuntimeRenderer {
  public static final SglangRenderer INSTANCE = new SglangRenderer();
  public static final String IMAGE = "lmsysorg/sglang:v0.5.15.post1-cu129";
  public static final String IMAGE_ROCM = "lmsysorg/sglang:v0.5.15.post1-rocm720-mi30x";

  static final Flag MODEL_PATH = new Flag(SglangFlags.MODEL_PATH, SglangFlags.MODEL);
  static final Flag REVISION = new Flag(SglangFlags.REVISION);
  static final Flag HOST = new Flag(SglangFlags.HOST);
  static final Flag PORT = new Flag(SglangFlags.PORT);
  static final Flag METRICS = new Flag(SglangFlags.ENABLE_METRICS);
  static final Flag SERVED_NAME = new Flag(SglangFlags.SERVED_MODEL_NAME);
  static final Flag TP = new Flag(SglangFlags.TP, SglangFlags.TP_SIZE, SglangFlags.TENSOR_PARALLEL_SIZE);
  static final Flag EP = new Flag(SglangFlags.EP, SglangFlags.EP_SIZE, SglangFlags.EXPERT_PARALLEL_SIZE);
  static final Flag DP = new Flag(SglangFlags.DP, SglangFlags.DP_SIZE, SglangFlags.DATA_PARALLEL_SIZE);
  static final Flag CONTEXT = new Flag(SglangFlags.CONTEXT_LENGTH);
  static final Flag MEM_FRACTION = new Flag(SglangFlags.MEM_FRACTION_STATIC);
  static final Flag CHUNKED_PREFILL = new Flag(SglangFlags.CHUNKED_PREFILL_SIZE);
  static final Flag MAX_RUNNING = new Flag(SglangFlags.MAX_RUNNING_REQUESTS);
  static final Flag QUANTIZATION = new Flag(SglangFlags.QUANTIZATION);
  static final Flag KV_CACHE = new Flag(SglangFlags.KV_CACHE_DTYPE);
  static final Flag ATTENTION = new Flag(SglangFlags.ATTENTION_BACKEND);
  static final Flag PREFIX_CACHING = new Flag(SglangFlags.ENABLE_PREFIX_CACHING);
  static final Flag TOOL_PARSER = new Flag(SglangFlags.TOOL_CALL_PARSER);
  static final Flag REASONING_PARSER = new Flag(SglangFlags.REASONING_PARSER);
  static final Flag CHAT_TEMPLATE = new Flag(SglangFlags.CHAT_TEMPLATE);
  static final Flag SPEC_ALGORITHM = new Flag(SglangFlags.SPECULATIVE_ALGORITHM);
  static final Flag SPEC_DRAFT = new Flag(SglangFlags.SPECULATIVE_DRAFT_MODEL_PATH);
  static final Flag SPEC_STEPS = new Flag(SglangFlags.SPECULATIVE_NUM_STEPS);
  static final Flag SPEC_TOPK = new Flag(SglangFlags.SPECULATIVE_EAGLE_TOPK);
  static final Flag SPEC_TOKENS = new Flag(SglangFlags.SPECULATIVE_NUM_DRAFT_TOKENS);
  static final Flag SPEC_ACCEPT_SINGLE = new Flag(SglangFlags.SPECULATIVE_ACCEPT_THRESHOLD_SINGLE);
  static final Flag SPEC_ACCEPT_ACC = new Flag(SglangFlags.SPECULATIVE_ACCEPT_THRESHOLD_ACC);
  static final Flag LORA_PATHS = new Flag(SglangFlags.LORA_PATHS);
  static final Flag MAX_LORA_RANK = new Flag(SglangFlags.MAX_LORA_RANK);
  static final Flag LORA_TARGETS = new Flag(SglangFlags.LORA_TARGET_MODULES);
  static final Flag TRUST_REMOTE_CODE = new Flag(SglangFlags.TRUST_REMOTE_CODE);
  static final Flag SKIP_TOKENIZER = new Flag(SglangFlags.SKIP_TOKENIZER_INIT);
  static final Flag LOG_LEVEL = new Flag(SglangFlags.LOG_LEVEL);
  static final Flag IS_EMBEDDING = new Flag(SglangFlags.IS_EMBEDDING);

  private SglangRenderer() {
  }

  @Override
  public String runtimeName() {
    return "sglang";
  }

  @Override
  public String containerName() {
    return "sglang";
  }

  @Override
  public int defaultPort() {
    return 30000;
  }

  @Override
  public boolean usesModelInit() {
    return true;
  }

  @Override
  public String defaultHpaMetric() {
    return "sglang:num_running_reqs";
  }

  @Override
  public String image(RuntimeInput in) {
    return RuntimeRenderer.pickImage(in, in.gpu().vendor() == GpuVendor.AMD && in.gpu().present() ? IMAGE_ROCM : IMAGE);
  }

  @Override
  public List<String> runtimeCommand() {
    return List.of("python3", "-m", "sglang.launch_server");
  }

  @Override
  public int listenPort(RuntimeInput in) {
    return RuntimeRenderer.listenPortFrom(in, PORT, defaultPort());
  }

  @Override
  public List<String> args(RuntimeInput in) {
    ArgList args = new ArgList(in.extraArgs());
    ModelArgument.of(in.model()).addOption(args, MODEL_PATH, REVISION);
    args.option(HOST, in.bindAddress());
    args.option(PORT, Integer.toString(in.configuredPort(defaultPort())));
    args.toggle(METRICS);
    args.option(SERVED_NAME, in.modelRef());
    SglangConfig c = in.spec().sglang();
    if (c != null) {
      typed(in, c, args);
    }
    if (in.gpu().count() > 1 && (c == null || c.tensorParallelSize() == null)) {
      args.option(TP, Integer.toString(in.gpu().count()));
    }
    if (in.mode() == ServingModes.Mode.EMBEDDING) {
      args.toggle(IS_EMBEDDING);
    }
    return args.extraArgs().build();
  }

  private static void typed(RuntimeInput in, SglangConfig c, ArgList args) {
    optional(args, TP, c.tensorParallelSize());
    optional(args, EP, c.expertParallelSize());
    optional(args, DP, c.dataParallelSize());
    optional(args, CONTEXT, c.contextLength());
    if (in.gpu().present()) {
      optional(args, MEM_FRACTION, c.memFractionStatic());
    }
    optional(args, CHUNKED_PREFILL, c.chunkedPrefillSize());
    optional(args, MAX_RUNNING, c.maxRunningRequests() != null ? c.maxRunningRequests()
        : in.spec().parallelSlots());
    optional(args, QUANTIZATION, blankToNull(c.quantization()));
    String kv = c.kvCacheCustomDtype() != null && !c.kvCacheCustomDtype().isBlank() ? c.kvCacheCustomDtype()
        : c.kvCacheDtype() == null || c.kvCacheDtype() == SglangKvCacheDtype.AUTO ? null
        : EnumValues.of(c.kvCacheDtype());
    optional(args, KV_CACHE, kv);
    optional(args, ATTENTION, EnumValues.of(c.attentionBackend()));
    if (Boolean.TRUE.equals(c.enablePrefixCaching())) {
      args.toggle(PREFIX_CACHING);
    }
    optional(args, TOOL_PARSER, EnumValues.of(c.toolCallParser()));
    optional(args, REASONING_PARSER, EnumValues.of(c.reasoningParser()));
    optional(args, CHAT_TEMPLATE, blankToNull(c.chatTemplate()));
    speculative(c.speculative(), args);
    List<String> lora = loraPaths(c);
    if (!lora.isEmpty()) {
      args.option(LORA_PATHS, lora.toArray(String[]::new));
    }
    optional(args, MAX_LORA_RANK, c.maxLoraRank());
    if (c.loraTargetModules() != null && !c.loraTargetModules().isEmpty()) {
      args.option(LORA_TARGETS, c.loraTargetModules().toArray(String[]::new));
    }
    if (Boolean.TRUE.equals(c.trustRemoteCode())) {
      args.toggle(TRUST_REMOTE_CODE);
    }
    if (Boolean.TRUE.equals(c.skipTokenizerInit())) {
      args.toggle(SKIP_TOKENIZER);
    }
    optional(args, LOG_LEVEL, EnumValues.of(c.logLevel()));
  }

  /** Speculative flags, only when enabled with an algorithm and draft weights (else the validator reports it). */
  private static void speculative(SglangSpeculativeConfig s, ArgList args) {
    if (s == null || !Boolean.TRUE.equals(s.enabled()) || s.algorithm() == null || s.draftModelPath() == null
        || s.draftModelPath().isBlank()) {
      return;
    }
    args.option(SPEC_ALGORITHM, EnumValues.of(s.algorithm()));
    args.option(SPEC_DRAFT, s.draftModelPath());
    optional(args, SPEC_STEPS, s.numSteps());
    optional(args, SPEC_TOPK, s.eagleTopK());
    optional(args, SPEC_TOKENS, s.numDraftTokens() == null ? 4 : s.numDraftTokens());
    optional(args, SPEC_ACCEPT_SINGLE, s.acceptThresholdSingle());
    optional(args, SPEC_ACCEPT_ACC, s.acceptThresholdAcc());
  }

  /** {@code name=path} per adapter: {@code loraModules} first, {@code loraAdapters} replacing same-named ones. */
  static List<String> loraPaths(SglangConfig c) {
    Map<String, String> byName = new LinkedHashMap<>();
    List<String> unnamed = new ArrayList<>();
    for (String module : c.loraModules() == null ? List.<String>of() : c.loraModules()) {
      int eq = module.indexOf('=');
      if (eq > 0 && !module.trim().startsWith("{")) {
        byName.put(module.substring(0, eq), module);
      } else {
        unnamed.add(module);
      }
    }
    for (SglangLoraAdapter a : c.loraAdapters() == null ? List.<SglangLoraAdapter>of() : c.loraAdapters()) {
      byName.put(a.name(), a.name() + "=" + a.path());
    }
    List<String> all = new ArrayList<>(byName.values());
    all.addAll(unnamed);
    return all;
  }

  private static void optional(ArgList args, Flag flag, Object value) {
    if (value != null) {
      args.option(flag, value.toString());
    }
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }

  @Override
  public List<EnvVar> runtimeEnv(RuntimeInput in) {
    SglangConfig c = in.spec().sglang();
    return RuntimeRenderer.secretEnv("HF_TOKEN", c == null ? null : c.hfTokenSecretRef());
  }

  @Override
  public Probes probes(int port) {
    return Probes.http("/health_generate", "/health", port);
  }
}
