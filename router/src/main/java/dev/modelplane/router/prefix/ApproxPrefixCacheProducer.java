package dev.modelplane.router.prefix;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginObserver;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.pool.EndpointId;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.PreRequestPlugin;
import dev.modelplane.router.scheduling.PrefixMatch;
import dev.modelplane.router.scheduling.PrepareDataPlugin;
import dev.modelplane.router.scheduling.ProfileRunResult;
import dev.modelplane.router.scheduling.ResponseReceivedPlugin;
import dev.modelplane.router.scheduling.SchedulingResult;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * {@code approx-prefix-cache-producer}: before scheduling, hashes the prompt and records on every candidate how many
 * leading blocks it is believed to cache; after scheduling, teaches the index that the chosen endpoint (and the
 * endpoint of a profile named {@code prefill}) now holds every block of the prompt, and when the response shows that
 * another endpoint served it, that one too. Learning runs on
 * {@code learner} so the request path does not wait for the index's write lock.
 */
public final class ApproxPrefixCacheProducer extends NamedPlugin implements PrepareDataPlugin, PreRequestPlugin,
    ResponseReceivedPlugin {
  public static final String TYPE = "approx-prefix-cache-producer";
  static final String STATE_KEY = TYPE + ".state";
  static final String PREFILL_PROFILE = "prefill";

  private record State(long[] hashes, Map<EndpointId, Integer> matches, int blockSize) {
  }

  private final PrefixCacheConfig config;
  private final PrefixIndex index;
  private final Executor learner;
  private final PluginObserver observer;

  public ApproxPrefixCacheProducer(String name, PrefixCacheConfig config, PrefixIndex index, Executor learner,
      PluginObserver observer) {
    super(TYPE, name);
    this.config = config;
    this.index = index;
    this.learner = learner;
    this.observer = observer == null ? PluginObserver.NONE : observer;
  }

  /** Factory; parameters as {@link PrefixCacheConfig#from}. */
  public static ApproxPrefixCacheProducer create(String name, PluginParameters parameters, PluginHandle handle) {
    PrefixCacheConfig config = PrefixCacheConfig.from(parameters);
    return new ApproxPrefixCacheProducer(name, config, new PrefixIndex(config.lruCapacityPerServer()),
        handle.environment().background(), handle.environment().observer());
  }

  public PrefixIndex index() {
    return index;
  }

  @Override
  public void prepareRequestData(InferenceRequest request, List<Candidate> candidates) {
    int blockSize = blockSize(candidates);
    int maxBlocks = config.maxPrefixBlocksToMatch();
    if (config.maxPrefixTokensToMatch() > 0 && blockSize > 0) {
      maxBlocks = config.maxPrefixTokensToMatch() / blockSize;
    }
    byte[] input = request.body() == null ? new byte[0] : request.body().userInputBytes();
    String salt = request.body() == null ? "" : request.body().cacheSalt();
    long[] hashes = PrefixHasher.hashPrompt(input, request.targetModel(), salt, blockSize, maxBlocks);
    Map<EndpointId, Integer> matches = index.matchLongestPrefix(hashes);
    for (Candidate c : candidates) {
      c.prefixMatch(new PrefixMatch(matches.getOrDefault(c.endpoint().id(), 0), hashes.length, blockSize));
    }
    request.attribute(STATE_KEY, new State(hashes, matches, blockSize));
  }

  @Override
  public void preRequest(InferenceRequest request, SchedulingResult result) {
    State state = request.attribute(STATE_KEY);
    ProfileRunResult primary = result.primary();
    if (state == null || primary == null || primary.targets().isEmpty()) {
      return;
    }
    Candidate target = primary.targets().get(0);
    ProfileRunResult prefill = result.profileResults().get(PREFILL_PROFILE);
    Candidate prefillTarget = prefill != null && !prefill.targets().isEmpty() ? prefill.targets().get(0) : null;
    if (state.hashes().length > 0) {
      learner.execute(() -> {
        index.add(state.hashes(), target.endpoint().id(), capacity(target.metrics()));
        if (prefillTarget != null) {
          index.add(state.hashes(), prefillTarget.endpoint().id(), capacity(prefillTarget.metrics()));
        }
      });
    }
    long bytesPerBlock = (long) state.blockSize() * PrefixHasher.AVERAGE_CHARACTERS_PER_TOKEN;
    int matched = state.matches().getOrDefault(target.endpoint().id(), 0);
    observer.prefixMatched(matched * bytesPerBlock, state.hashes().length * bytesPerBlock);
  }

  /**
   * When the proxy served the request elsewhere than the primary pick (a retry, or Envoy's fallback through the
   * destination list), that endpoint now holds the prompt's blocks too.
   */
  @Override
  public void responseReceived(InferenceRequest request, SchedulingResult result, int status,
      EndpointState servedBy) {
    State state = request.attribute(STATE_KEY);
    if (state == null || servedBy == null || state.hashes().length == 0) {
      return;
    }
    ProfileRunResult primary = result == null ? null : result.primary();
    if (primary != null && !primary.targets().isEmpty()
        && primary.targets().get(0).endpoint().id().equals(servedBy.id())) {
      return;
    }
    learner.execute(() -> index.add(state.hashes(), servedBy.id(), capacity(servedBy.metrics())));
  }

  private int capacity(MetricsSnapshot metrics) {
    if (config.autoTune() && metrics.cacheNumBlocks() > 0) {
      return metrics.cacheNumBlocks();
    }
    return config.lruCapacityPerServer();
  }

  /** The block size in tokens: the first candidate's {@code block_size} under autoTune, else the configured one. */
  int blockSize(List<Candidate> candidates) {
    if (config.autoTune() && !candidates.isEmpty()) {
      int fromMetrics = candidates.get(0).metrics().cacheBlockSize();
      if (fromMetrics > 0) {
        return fromMetrics;
      }
    }
    return config.blockSizeTokens() > 0 ? config.blockSizeTokens() : PrefixCacheConfig.DEFAULT.blockSizeTokens();
  }
}
