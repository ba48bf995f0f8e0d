package dev.modelplane.router.prefix.precise;

import dev.modelplane.common.kvevents.VllmBlockHasher;
import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.plugin.PromptTokenizer;
import dev.modelplane.router.pool.EndpointId;
import dev.modelplane.router.pool.EndpointListener;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.LlmRequestBody;
import dev.modelplane.router.scheduling.PrepareDataPlugin;
import dev.modelplane.router.scheduling.PreRequestPlugin;
import dev.modelplane.router.scheduling.PrefixMatch;
import dev.modelplane.router.scheduling.ProfileRunResult;
import dev.modelplane.router.scheduling.SchedulingResult;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code precise-prefix-cache-producer} (llm-d's name): before scheduling, writes into each candidate's
 * {@link Candidate#prefixMatch()} the leading blocks of the request's prompt its server reports holding in its KV
 * cache, over the prompt's full blocks, for {@code prefix-cache-scorer} (and every other plugin that reads the match)
 * to score. The servers' events feed one index per pool ({@link KvEventIngestion}, {@link PoolIndex}); the prompt's
 * blocks are named as the server names them, from the prompt's token ids ({@link PromptTokenizer}), the adapter's
 * name for a LoRA request and the body's {@code cache_salt} on the first block, computed once per request.
 *
 * <p>It leaves the approximate match ({@code approx-prefix-cache-producer}, which the config loader adds beside it)
 * while the pool's index is not fed (no server's events indexed yet), and for a request it cannot tokenize (no
 * tokenizer for the model, an API other than completions and chat).
 *
 * <p>With {@code speculativeIndexing}, the endpoint picked for a request counts as holding its blocks for
 * {@code speculativeTTL}, so a burst sharing a prefix lands together before the server's events arrive.
 *
 * <p>{@link PrecisePrefixCacheScorer} is the older single-plugin form: this producer and a scorer in one.
 */
public final class PrecisePrefixCacheProducer extends NamedPlugin implements PrepareDataPlugin, PreRequestPlugin,
    EndpointListener, AutoCloseable {
  public static final String TYPE = "precise-prefix-cache-producer";
  /** The P/D profile whose pick also receives the prompt (as {@code approx-prefix-cache-producer} learns it). */
  static final String PREFILL_PROFILE = "prefill";
  private static final Logger LOG = LoggerFactory.getLogger(PrecisePrefixCacheProducer.class);

  /**
   * A request's block keys, or why it is scored from the approximate index.
   *
   * @param keys the keys of the prompt's full blocks, first to last; null when falling back
   * @param fallback {@code no_events}, {@code no_tokenizer} or {@code prompt}; null when {@code keys} are set
   */
  record RequestKeys(long[] keys, String fallback) {
  }

  private final PrecisePrefixConfig config;
  private final PluginEnvironment environment;
  private final KvEventIngestion ingestion;
  private final AtomicBoolean warnedTokenizer = new AtomicBoolean();
  private final String keysAttribute;

  public PrecisePrefixCacheProducer(String name, PrecisePrefixConfig config, PluginEnvironment environment) {
    this(TYPE, name, config, environment);
  }

  PrecisePrefixCacheProducer(String type, String name, PrecisePrefixConfig config, PluginEnvironment environment) {
    super(type, name);
    // Per instance: two producers (or a producer and the single-plugin scorer) may hash with different block sizes.
    this.keysAttribute = type + "/" + name + ".keys";
    this.config = config;
    this.environment = environment;
    this.ingestion = new KvEventIngestion(config, environment.observer());
  }

  /** Factory; parameters as {@link PrecisePrefixConfig#from}. */
  public static PrecisePrefixCacheProducer create(String name, PluginParameters parameters, PluginHandle handle) {
    return new PrecisePrefixCacheProducer(name, PrecisePrefixConfig.from(parameters), handle.environment());
  }

  public PrecisePrefixConfig config() {
    return config;
  }

  /**
   * Writes the precise match into each candidate's {@link Candidate#prefixMatch()}, over the approximate one, so the
   * plugins that read the match there (llm-d's prefix-cache affinity filter, the P/D decider, the predicted-latency
   * scorer) see what the servers really cache. Leaves the approximate match where this producer falls back.
   */
  @Override
  public void prepareRequestData(InferenceRequest request, List<Candidate> candidates) {
    if (candidates.isEmpty()) {
      return;
    }
    PoolIndex index = ingestion.index(candidates.get(0).endpoint().id());
    RequestKeys keys = keys(request, index, candidates);
    if (keys.keys() == null) {
      return;
    }
    int[] matched = match(index, keys.keys(), candidates);
    for (int i = 0; i < matched.length; i++) {
      candidates.get(i).prefixMatch(new PrefixMatch(matched[i], keys.keys().length, config.blockSize()));
    }
  }

  @Override
  public boolean refines() {
    return true;
  }

  private int[] match(PoolIndex index, long[] blocks, List<Candidate> candidates) {
    EndpointId[] pods = new EndpointId[candidates.size()];
    for (int i = 0; i < pods.length; i++) {
      pods[i] = candidates.get(i).endpoint().id();
    }
    return index.match(blocks, pods, environment.nanoClock().getAsLong());
  }

  /**
   * Each candidate's share of the prompt's full blocks its server holds (0 when the prompt has none), or the
   * approximate match already on the candidate where this producer falls back.
   */
  void score(InferenceRequest request, List<Candidate> candidates, double[] scores) {
    if (candidates.isEmpty()) {
      return;
    }
    PoolIndex index = ingestion.index(candidates.get(0).endpoint().id());
    RequestKeys keys = keys(request, index, candidates);
    if (keys.keys() == null) {
      for (int i = 0; i < candidates.size(); i++) {
        PrefixMatch m = candidates.get(i).prefixMatch();
        scores[i] = m == null || m.totalBlocks() == 0 ? 0.0 : (double) m.matchBlocks() / m.totalBlocks();
      }
      return;
    }
    long[] blocks = keys.keys();
    int[] matched = match(index, blocks, candidates);
    for (int i = 0; i < matched.length; i++) {
      scores[i] = blocks.length == 0 ? 0.0 : (double) matched[i] / blocks.length;
    }
  }

  /** The request's keys, computed by the first profile that scores it and kept on the request for the others. */
  private RequestKeys keys(InferenceRequest request, PoolIndex index, List<Candidate> candidates) {
    RequestKeys keys = request.attribute(keysAttribute);
    if (keys == null) {
      keys = computeKeys(request, index, candidates);
      if (keys.fallback() != null) {
        environment.observer().precisePrefixFallback(index == null ? KvEventIngestion.NO_POOL : index.pool(),
            keys.fallback());
      }
      request.attribute(keysAttribute, keys);
    }
    return keys;
  }

  private RequestKeys computeKeys(InferenceRequest request, PoolIndex index, List<Candidate> candidates) {
    if (index == null || !index.precise()) {
      return new RequestKeys(null, "no_events");
    }
    LlmRequestBody body = request.body();
    int[] given = body == null ? null : body.promptTokenIds();
    PromptTokenizer.Prompt prompt = body == null || given != null ? null : switch (body.api()) {
      case COMPLETIONS -> {
        byte[] text = body.userInputBytes();
        yield text.length == 0 ? null : new PromptTokenizer.Completion(new String(text, StandardCharsets.UTF_8));
      }
      case CHAT_COMPLETIONS -> new PromptTokenizer.Chat(body.raw());
      default -> null;
    };
    if (prompt == null && given == null) {
      return new RequestKeys(null, "prompt");
    }
    String model = request.targetModel();
    // Token ids in the request are what the server hashes: no tokenizer needed.
    int[] tokens = given != null ? given : environment.tokenizer().tokenize(model, prompt);
    if (tokens == null) {
      if (warnedTokenizer.compareAndSet(false, true)) {
        LOG.atWarn().addKeyValue("model", model).addKeyValue("plugin", type()).log("no tokenizer for the model; "
            + "such requests are scored from the approximate prefix index");
      }
      return new RequestKeys(null, "no_tokenizer");
    }
    String adapter = isAdapter(model, index, candidates) ? model : null;
    String salt = body.cacheSalt() == null || body.cacheSalt().isEmpty() ? null : body.cacheSalt();
    byte[][] digests = new VllmBlockHasher(config.hashSeed()).hashPrompt(tokens, config.blockSize(), adapter, salt);
    long[] keys = new long[digests.length];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = VllmBlockHasher.wireValue(digests[i]);
    }
    return new RequestKeys(keys, null);
  }

  /**
   * A request names a LoRA adapter by its {@code model}; vLLM mixes the adapter's name into every block. The model is
   * taken for an adapter when the pool's servers stored blocks for it or a candidate reports it loaded or waiting.
   */
  private static boolean isAdapter(String model, PoolIndex index, List<Candidate> candidates) {
    if (index.isAdapter(model)) {
      return true;
    }
    for (Candidate c : candidates) {
      MetricsSnapshot m = c.metrics();
      if (m.activeModels().contains(model) || m.waitingModels().contains(model)) {
        return true;
      }
    }
    return false;
  }

  /** With speculative indexing, the picked endpoints count as holding the prompt's blocks for the TTL. */
  @Override
  public void preRequest(InferenceRequest request, SchedulingResult result) {
    RequestKeys keys = request.attribute(keysAttribute);
    if (!config.speculativeIndexing() || keys == null || keys.keys() == null || keys.keys().length == 0) {
      return;
    }
    long now = environment.nanoClock().getAsLong();
    speculate(keys.keys(), result.primary(), now);
    speculate(keys.keys(), result.profileResults().get(PREFILL_PROFILE), now);
  }

  private void speculate(long[] keys, ProfileRunResult picked, long now) {
    if (picked != null && !picked.targets().isEmpty()) {
      EndpointId pod = picked.targets().get(0).endpoint().id();
      PoolIndex index = ingestion.index(pod);
      if (index != null) {
        index.speculate(keys, pod, now);
      }
    }
  }

  /**
   * Takes the servers' events from {@link #apply} instead of their sockets: for a fleet that runs in-process (the
   * planner's virtual-time simulation). Call before any endpoint is added; no socket is opened after.
   */
  public void eventsFromCaller() {
    ingestion.fromCaller();
  }

  /** Applies one batch of {@code pod}'s KV-cache events, as if read from its server (after {@link #eventsFromCaller}). */
  public void apply(EndpointId pod, dev.modelplane.common.kvevents.KvEventBatch batch) {
    ingestion.apply(pod, batch);
  }

  /** Each pool's index, for {@code /metrics}. */
  public List<PoolIndex.Status> statuses() {
    return ingestion.statuses();
  }

  /** The index of {@code pool}, or null while it has no endpoint. */
  PoolIndex index(PoolKey pool) {
    return ingestion.index(pool);
  }

  @Override
  public void added(EndpointPool pool, EndpointState endpoint) {
    ingestion.added(pool, endpoint);
  }

  @Override
  public void removed(EndpointPool pool, EndpointState endpoint) {
    ingestion.removed(pool, endpoint);
  }

  @Override
  public void replaced(EndpointPool pool, EndpointState before, EndpointState after) {
    ingestion.replaced(pool, before, after);
  }

  /** Stops reading events. */
  @Override
  public void close() {
    ingestion.close();
  }
}
