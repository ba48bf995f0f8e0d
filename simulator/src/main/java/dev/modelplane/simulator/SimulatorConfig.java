package dev.modelplane.simulator;

import dev.modelplane.common.kvevents.EventLayout;
import dev.modelplane.common.kvevents.KvEventsConfig;
import dev.modelplane.common.servers.SimulatorFlags;
import dev.modelplane.common.servers.VllmFlags;
import dev.modelplane.common.tokenizer.ModelTokenizer;
import dev.modelplane.common.tokenizer.TokenizerCache;
import dev.modelplane.common.tokenizer.WordTokenizer;
import dev.modelplane.simulator.physics.StepCostModel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Every setting of the simulator. Flag names and duration formats follow llm-d-inference-sim where the two overlap,
 * so a command line can be moved from one to the other; flags only we have are marked "(modelplane)" in their help.
 * Nullable latency fields mean "not given": the effective value comes from the preset, then the default.
 * Fluent setters are for tests and embedding. {@link SimulatorConfigCheck} checks a parsed configuration. It is one
 * class, longer than most, because picocli fills every flag into a field of it and the effective values read them
 * together; the model and hardware flags are a mixin of their own ({@link HardwareOptions}).
 */
public final class SimulatorConfig {
  @Option(names = VllmFlags.PORT, description = "Port of rank 0; rank i listens on port+i (default ${DEFAULT-VALUE}).")
  int port = 8000;

  @Option(names = VllmFlags.HOST, description = "Address to bind (default ${DEFAULT-VALUE}). (modelplane)")
  String host = "0.0.0.0";

  @Option(names = VllmFlags.MODEL, description = "The served base model name.")
  String model;

  @Option(names = VllmFlags.SERVED_MODEL_NAME, arity = "1..*",
      description = "Names the API accepts for the base model; the first one labels the metrics.")
  List<String> servedModelNames = new ArrayList<>();

  @Option(names = VllmFlags.TOKENIZER, paramLabel = "PATH", description = "Count, render chats and hash KV blocks with "
      + "a Hugging Face tokenizer: a model directory (tokenizer.json, tokenizer_config.json) or a tokenizer.json "
      + "(default: the word tokenizer).")
  String tokenizer;

  @Option(names = SimulatorFlags.ACCEPT_ANY_MODEL,
      description = "Serve requests naming any model (not an adapter) with the base model, as llama.cpp's server and "
          + "TGI do (modelplane).")
  boolean acceptAnyModel;

  @Mixin
  HardwareOptions hardware = new HardwareOptions();

  @Option(names = "--latency-calculator", description = "step | constant | per-token | \"\" (default: step with "
      + "--preset or --model-config, unless per-request latency flags are given; otherwise constant when "
      + "--time-to-first-token is set, per-token when not).")
  String latencyCalculator = "";

  @Option(names = "--time-to-first-token", converter = DurationFlag.class,
      description = "Prefill time of the constant calculator, e.g. 100ms.")
  Duration timeToFirstToken;

  @Option(names = "--time-to-first-token-std-dev", converter = DurationFlag.class)
  Duration timeToFirstTokenStdDev;

  @Option(names = "--prefill-overhead", converter = DurationFlag.class,
      description = "Fixed cost of a prefill step (per-token calculator).")
  Duration prefillOverhead;

  @Option(names = "--prefill-time-per-token", converter = DurationFlag.class,
      description = "Cost per uncached prompt token (per-token calculator).")
  Duration prefillTimePerToken;

  @Option(names = "--prefill-time-std-dev", converter = DurationFlag.class)
  Duration prefillTimeStdDev;

  @Option(names = "--inter-token-latency", converter = DurationFlag.class,
      description = "Decode step time with one running sequence.")
  Duration interTokenLatency;

  @Option(names = "--inter-token-latency-std-dev", converter = DurationFlag.class)
  Duration interTokenLatencyStdDev;

  @Option(names = "--time-factor-under-load", description = "Step-time multiplier reached at max-num-seqs "
      + "running sequences, linear from 1 at one sequence (default 1.0).")
  Double timeFactorUnderLoad;

  @Option(names = VllmFlags.MAX_NUM_SEQS, description = "Sequences in the running batch (default 5; with the step "
      + "calculator vLLM's default for the GPU: 1024 on H100/H200, else 256).")
  Integer maxNumSeqs;

  @Option(names = "--max-waiting-queue-length", description = "Waiting requests before 429 (default ${DEFAULT-VALUE}).")
  int maxWaitingQueueLength = 1000;

  @Option(names = VllmFlags.MAX_MODEL_LEN, description = "Context window in tokens (default 1024; with the step "
      + "calculator the model's own, within the KV cache).")
  Integer maxModelLen;

  @Option(names = VllmFlags.MAX_NUM_BATCHED_TOKENS, description = "Token budget of one engine step; longer prefills "
      + "are chunked (default 2048; with the step calculator vLLM's default for the GPU: 8192 on H100/H200, else "
      + "2048). (vLLM's flag)")
  Integer maxNumBatchedTokens;

  @Option(names = "--prefill-interference", description = "Fraction (0-1) of a prefill's compute time that stalls "
      + "the decode step it overlaps: 0 runs prefills beside decoding as llm-d-inference-sim does, 1 serialises them "
      + "as vLLM's mixed batches do (default ${DEFAULT-VALUE}). (modelplane)")
  double prefillInterference = 0.0;

  @Option(names = SimulatorFlags.ENABLE_KVCACHE, arity = "0..1", fallbackValue = "true",
      description = "Prefix caching over the KV blocks (default ${DEFAULT-VALUE}; blocks are always accounted).")
  boolean enableKvcache = true;

  /** Not a flag: a virtual run names KV blocks by a fast hash (see {@link KvCache}). */
  boolean fastBlockHashes;

  @Option(names = "--kv-cache-size", description = "KV cache size in blocks (default 1024; with the step "
      + "calculator what the GPU's memory leaves after weights and activations).")
  Integer kvCacheSize;

  @Option(names = VllmFlags.BLOCK_SIZE,
      description = "Tokens per KV block: 8, 16, 32, 64 or 128 (default ${DEFAULT-VALUE}).")
  int blockSize = 16;

  @Option(names = SimulatorFlags.HASH_SEED, description = "Seed of the block hashes (default: $PYTHONHASHSEED, else empty).")
  String hashSeed;

  @Option(names = VllmFlags.PREFIX_CACHING_HASH_ALGO, description = "Block hash: sha256_cbor, the one vLLM algorithm "
      + "another program can compute (default ${DEFAULT-VALUE}).")
  String prefixCachingHashAlgo = "sha256_cbor";

  @Option(names = VllmFlags.KV_EVENTS_CONFIG, description = "KV-cache events, as vLLM's JSON: "
      + "{\"enable_kv_cache_events\":true, \"endpoint\":\"tcp://*:5557\", \"replay_endpoint\":…, \"topic\":…} "
      + "(default: none published).")
  String kvEventsConfig;

  @Option(names = "--kv-events-layout", description = "Each event as an ARRAY (vLLM 0.2x, llm-d-inference-sim) or a "
      + "MAP (newer vLLM) (default ${DEFAULT-VALUE}). (modelplane)")
  EventLayout kvEventsLayout = EventLayout.ARRAY;

  @Option(names = VllmFlags.LORA_MODULES, arity = "1..*",
      description = "LoRA adapters: JSON {\"name\":…,\"path\":…,\"base_model_name\":…} or name=path, space "
          + "separated.")
  List<String> loraModules = new ArrayList<>();

  @Option(names = VllmFlags.MAX_LORAS, description = "Adapters in one batch (default ${DEFAULT-VALUE}).")
  int maxLoras = 1;

  @Option(names = VllmFlags.MAX_CPU_LORAS, description = "Adapters kept loaded (default: max-loras).")
  Integer maxCpuLoras;

  @Option(names = "--lora-load-time", converter = DurationFlag.class,
      description = "Swap cost added to a step that brings an adapter onto the GPU (default 0s). (modelplane)")
  Duration loraLoadTime = Duration.ZERO;

  @Option(names = "--mode", description = "echo | random (default ${DEFAULT-VALUE}).")
  String mode = "random";

  @Option(names = "--failure-injection-rate", description = "Percent of requests that fail (0-100).")
  int failureInjectionRate;

  @Option(names = "--failure-types", arity = "1..*", split = ",", description = "rate_limit, invalid_api_key, "
      + "context_length, server_error, invalid_request, model_not_found (default: all).")
  List<String> failureTypes = new ArrayList<>();

  @Option(names = VllmFlags.DATA_PARALLEL_SIZE,
      description = "Ranks on consecutive ports, 1-8 (default ${DEFAULT-VALUE}).")
  int dataParallelSize = 1;

  @Option(names = "--startup-duration", converter = DurationFlag.class,
      description = "Time /health answers 503, like a model load (default 0s).")
  Duration startupDuration = Duration.ZERO;

  @Option(names = VllmFlags.SEED, description = "Seed of jitter and random text (default: time).")
  Long seed;

  @Option(names = "--otlp-traces-endpoint", paramLabel = "URL", description = "vLLM's flag: export an llm_request "
      + "span per request (with queue, prefill and decode children) to this OTLP collector (HTTP; gRPC with "
      + "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=grpc); the OTEL_* variables "
      + "apply too. Without it (and without OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) no traces are made.")
  String otlpTracesEndpoint;

  @Option(names = "--time-scale", description = "Wall time per model time: 0.1 runs ten times faster with the "
      + "same order of events; metrics stay in model time (default ${DEFAULT-VALUE}). (modelplane)")
  double timeScale = 1.0;

  @Option(names = "--default-embedding-dimensions", description = "Embedding size (default ${DEFAULT-VALUE}).")
  int defaultEmbeddingDimensions = 384;

  @Option(names = "--max-request-body-size-mb", description = "Largest request body (default ${DEFAULT-VALUE}).")
  int maxRequestBodySizeMb = 4;

  /** A configuration with defaults for {@code model}. */
  public static SimulatorConfig of(String model) {
    SimulatorConfig c = new SimulatorConfig();
    c.model = model;
    return c;
  }

  // ---- effective values -------------------------------------------------------------------------

  /** The peer latency profile of the preset, for the per-request calculators; null without a preset. */
  LatencyPreset presetOrNull() {
    String name = hardware.presetName();
    return name == null ? null : LatencyPreset.byName(name);
  }

  private Duration pick(Duration explicit, java.util.function.Function<LatencyPreset, Duration> fromPreset) {
    if (explicit != null) {
      return explicit;
    }
    LatencyPreset p = stepModel() ? null : presetOrNull();
    return p == null ? Duration.ZERO : fromPreset.apply(p);
  }

  private boolean perRequestLatencyGiven() {
    return timeToFirstToken != null || timeToFirstTokenStdDev != null || prefillOverhead != null
        || prefillTimePerToken != null || interTokenLatency != null || timeFactorUnderLoad != null;
  }

  /**
   * The calculator in effect: {@code step} (engine steps priced by the model's geometry on its GPU),
   * {@code constant} or {@code per-token} (llm-d-inference-sim's per-request formulas).
   */
  public String effectiveCalculator() {
    String c = latencyCalculator == null ? "" : latencyCalculator.trim().toLowerCase(Locale.ROOT);
    if (!c.isEmpty()) {
      return c;
    }
    if (hardware.chosen() && !perRequestLatencyGiven()) {
      return "step";
    }
    Duration ttft = timeToFirstToken == null ? Duration.ZERO : timeToFirstToken;
    Duration sd = timeToFirstTokenStdDev == null ? Duration.ZERO : timeToFirstTokenStdDev;
    return ttft.isZero() && sd.isZero() ? "per-token" : "constant";
  }

  /** Whether engine steps are priced by the step cost model. */
  public boolean stepModel() {
    return "step".equals(effectiveCalculator());
  }

  /** The step cost model, or null when another calculator is in effect. */
  public StepCostModel costModel() {
    return stepModel() ? hardware.costModel() : null;
  }

  /** The model and hardware options. */
  public HardwareOptions hardware() {
    return hardware;
  }

  public Duration timeToFirstToken() {
    return pick(timeToFirstToken, LatencyPreset::ttft);
  }

  public Duration timeToFirstTokenStdDev() {
    return pick(timeToFirstTokenStdDev, p -> p.ttft().dividedBy(5));
  }

  public Duration prefillOverhead() {
    return pick(prefillOverhead, LatencyPreset::prefillOverhead);
  }

  public Duration prefillTimePerToken() {
    return pick(prefillTimePerToken, LatencyPreset::prefillPerToken);
  }

  public Duration prefillTimeStdDev() {
    return pick(prefillTimeStdDev, p -> p.prefillOverhead().dividedBy(6));
  }

  public Duration interTokenLatency() {
    return pick(interTokenLatency, LatencyPreset::interTokenLatency);
  }

  public Duration interTokenLatencyStdDev() {
    return pick(interTokenLatencyStdDev, LatencyPreset::itlStdDev);
  }

  public double timeFactorUnderLoad() {
    if (timeFactorUnderLoad != null) {
      return timeFactorUnderLoad;
    }
    LatencyPreset p = presetOrNull();
    return p == null ? 1.0 : p.timeFactorUnderLoad();
  }

  public int maxNumSeqs() {
    if (maxNumSeqs != null) {
      return maxNumSeqs;
    }
    StepCostModel m = costModel();
    if (m != null) {
      return m.gpu().defaultMaxNumSeqs();
    }
    LatencyPreset p = presetOrNull();
    return p == null ? 5 : p.maxNumSeqs();
  }

  public int kvCacheSize() {
    if (kvCacheSize != null) {
      return kvCacheSize;
    }
    StepCostModel m = costModel();
    if (m != null) {
      return memory(m).kvBlocks();
    }
    LatencyPreset p = presetOrNull();
    return p == null ? 1024 : p.kvBlocks();
  }

  StepCostModel.Memory memory(StepCostModel m) {
    return m.memory(hardware.gpuMemoryUtilization, blockSize, maxNumBatchedTokens(), maxNumSeqs());
  }

  public int maxNumBatchedTokens() {
    if (maxNumBatchedTokens != null) {
      return maxNumBatchedTokens;
    }
    StepCostModel m = costModel();
    return m != null ? m.gpu().defaultMaxNumBatchedTokens() : 2048;
  }

  /** The context window: the flag, else (step calculator) the model's own within the KV cache, else 1024. */
  public int maxModelLen() {
    if (maxModelLen != null) {
      return maxModelLen;
    }
    StepCostModel m = costModel();
    if (m == null) {
      return 1024;
    }
    long cached = (long) kvCacheSize() * blockSize;
    return (int) Math.min(m.geometry().maxPositions(), cached);
  }

  public double prefillInterference() {
    return prefillInterference;
  }

  /** The KV-event settings ({@link KvEventsConfig#DISABLED} without the flag); the flag was checked on parse. */
  public KvEventsConfig kvEvents() {
    return kvEventsConfig == null ? KvEventsConfig.DISABLED : KvEventsConfig.parse(kvEventsConfig);
  }

  public EventLayout kvEventsLayout() {
    return kvEventsLayout;
  }

  public String hashSeed() {
    if (hashSeed != null) {
      return hashSeed;
    }
    String env = System.getenv("PYTHONHASHSEED");
    return env == null ? "" : env;
  }

  public int maxCpuLoras() {
    return maxCpuLoras == null ? maxLoras : maxCpuLoras;
  }

  /** The tokenizer --tokenizer names (loaded once per process), else the word tokenizer; throws if it cannot load. */
  public ModelTokenizer tokenizer() {
    return tokenizer == null ? WordTokenizer.INSTANCE : TokenizerCache.shared().get(Path.of(tokenizer));
  }

  /** Whether a request naming an unknown model is served by the base model. */
  public boolean acceptAnyModel() {
    return acceptAnyModel;
  }

  /** The names the API accepts for the base model, the first labelling metrics. */
  public List<String> servedNames() {
    return servedModelNames.isEmpty() ? List.of(model) : List.copyOf(servedModelNames);
  }

  /**
   * Checks ranges; returns the problems (empty when valid). Takes the model from {@code $SIM_MODEL} when
   * {@code --model} is missing.
   */
  public List<String> problems() {
    return SimulatorConfigCheck.problems(this);
  }

  // ---- fluent setters (tests, embedding) -----------------------------------------------------------

  public SimulatorConfig port(int v) { port = v; return this; }
  public SimulatorConfig host(String v) { host = v; return this; }
  public SimulatorConfig acceptAnyModel(boolean v) { acceptAnyModel = v; return this; }
  public SimulatorConfig tokenizer(String v) { tokenizer = v; return this; }
  public SimulatorConfig servedModelNames(List<String> v) { servedModelNames = new ArrayList<>(v); return this; }
  public SimulatorConfig preset(String v) { hardware.preset(v); return this; }
  public SimulatorConfig modelConfig(String v) { hardware.modelConfig(v); return this; }
  public SimulatorConfig gpu(String v) { hardware.gpu(v); return this; }
  public SimulatorConfig tensorParallelSize(int v) { hardware.tensorParallelSize(v); return this; }
  public SimulatorConfig latencyCalculator(String v) { latencyCalculator = v; return this; }
  public SimulatorConfig timeToFirstToken(Duration v) { timeToFirstToken = v; return this; }
  public SimulatorConfig prefillOverhead(Duration v) { prefillOverhead = v; return this; }
  public SimulatorConfig prefillTimePerToken(Duration v) { prefillTimePerToken = v; return this; }
  public SimulatorConfig prefillTimeStdDev(Duration v) { prefillTimeStdDev = v; return this; }
  public SimulatorConfig interTokenLatency(Duration v) { interTokenLatency = v; return this; }
  public SimulatorConfig interTokenLatencyStdDev(Duration v) { interTokenLatencyStdDev = v; return this; }
  public SimulatorConfig timeFactorUnderLoad(double v) { timeFactorUnderLoad = v; return this; }
  public SimulatorConfig maxNumSeqs(int v) { maxNumSeqs = v; return this; }
  public SimulatorConfig maxWaitingQueueLength(int v) { maxWaitingQueueLength = v; return this; }
  public SimulatorConfig maxModelLen(int v) { maxModelLen = v; return this; }
  public SimulatorConfig maxNumBatchedTokens(int v) { maxNumBatchedTokens = v; return this; }
  public SimulatorConfig prefillInterference(double v) { prefillInterference = v; return this; }
  public SimulatorConfig enableKvcache(boolean v) { enableKvcache = v; return this; }
  public SimulatorConfig kvCacheSize(int v) { kvCacheSize = v; return this; }
  public SimulatorConfig blockSize(int v) { blockSize = v; return this; }
  public SimulatorConfig hashSeed(String v) { hashSeed = v; return this; }
  public SimulatorConfig kvEventsConfig(String v) { kvEventsConfig = v; return this; }
  public SimulatorConfig kvEventsLayout(EventLayout v) { kvEventsLayout = v; return this; }
  public SimulatorConfig loraModules(List<String> v) { loraModules = new ArrayList<>(v); return this; }
  public SimulatorConfig maxLoras(int v) { maxLoras = v; return this; }
  public SimulatorConfig maxCpuLoras(int v) { maxCpuLoras = v; return this; }
  public SimulatorConfig loraLoadTime(Duration v) { loraLoadTime = v; return this; }
  public SimulatorConfig mode(String v) { mode = v; return this; }
  public SimulatorConfig failureInjectionRate(int v) { failureInjectionRate = v; return this; }
  public SimulatorConfig failureTypes(List<String> v) { failureTypes = new ArrayList<>(v); return this; }
  public SimulatorConfig dataParallelSize(int v) { dataParallelSize = v; return this; }
  public SimulatorConfig startupDuration(Duration v) { startupDuration = v; return this; }
  public SimulatorConfig seed(long v) { seed = v; return this; }
  public SimulatorConfig timeScale(double v) { timeScale = v; return this; }

  public int port() { return port; }
  public String host() { return host; }
  public String model() { return model; }
  public int maxWaitingQueueLength() { return maxWaitingQueueLength; }
  public boolean enableKvcache() { return enableKvcache; }
  public int blockSize() { return blockSize; }
  public List<String> loraModules() { return loraModules; }
  public int maxLoras() { return maxLoras; }
  public Duration loraLoadTime() { return loraLoadTime; }
  public String mode() { return mode; }
  public int failureInjectionRate() { return failureInjectionRate; }
  public List<String> failureTypes() { return failureTypes; }
  public int dataParallelSize() { return dataParallelSize; }
  public Duration startupDuration() { return startupDuration; }
  public long seedOrTime() { return seed != null ? seed : System.nanoTime(); }
  public double timeScale() { return timeScale; }
  public int defaultEmbeddingDimensions() { return defaultEmbeddingDimensions; }
  public int maxRequestBodyBytes() { return maxRequestBodySizeMb * 1024 * 1024; }
}
