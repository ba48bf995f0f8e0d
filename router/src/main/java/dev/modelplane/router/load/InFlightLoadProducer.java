package dev.modelplane.router.load;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.pool.EndpointId;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.prefix.PrefixHasher;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.PreRequestPlugin;
import dev.modelplane.router.scheduling.PrefixMatch;
import dev.modelplane.router.scheduling.ProfileRunResult;
import dev.modelplane.router.scheduling.ResponseCompletePlugin;
import dev.modelplane.router.scheduling.ResponseOutcome;
import dev.modelplane.router.scheduling.ResponseReceivedPlugin;
import dev.modelplane.router.scheduling.SchedulingResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code inflight-load-producer} (llm-d's name and parameters): counts, per endpoint, the requests this router sent
 * there and has not seen finish, and the prompt tokens they still have to compute there — the in-flight load that
 * {@code token-load-scorer} scores and {@code prefix-cache-affinity-filter} turns into a time to first token.
 *
 * <p>A request's tokens on an endpoint are its estimated prompt tokens (prompt bytes / 4, rounded up) less the prefix
 * the endpoint is believed to cache ({@link Candidate#prefixMatch()}, whichever producer filled it): the uncached
 * blocks plus any prompt tail beyond the blocks matched at all. With {@code addEstimatedOutputTokens} an output
 * estimate is added: {@code round(prompt × outputRatio)}, capped by the request's own output limit and by
 * {@code maxEstimatedOutputTokens}.
 *
 * <p>Each profile's first pick is charged when the request is dispatched (PreRequest). When the response starts
 * (ResponseReceived: the first body byte in the gateway, the response headers behind Envoy) prefill is over: without
 * output estimates every pick's tokens are released, and a {@code prefill} profile's pick is released entirely; with
 * them only the {@code prefill} pick is. Everything left is released when the response is over, finished or not
 * (ResponseComplete). A request scheduled again after a failed attempt first releases what it held.
 */
public final class InFlightLoadProducer extends NamedPlugin implements PreRequestPlugin, ResponseReceivedPlugin,
    ResponseCompletePlugin {
  public static final String TYPE = "inflight-load-producer";
  public static final double DEFAULT_OUTPUT_RATIO = 1.5;
  static final String PREFILL_PROFILE = "prefill";

  /** What one endpoint has in flight from this router. */
  public record Load(long requests, long tokens) {
    public static final Load ZERO = new Load(0, 0);
  }

  /** One profile pick of one request: what it still holds on the endpoint; each part is released once. */
  private record Charge(String profile, EndpointId endpoint, AtomicLong tokens, AtomicBoolean request) {
  }

  private final boolean addEstimatedOutputTokens;
  private final double outputRatio;
  private final long maxEstimatedOutputTokens;
  private final Map<EndpointId, Load> loads = new ConcurrentHashMap<>();
  private final String chargesKey;
  private final String promptKey;

  /**
   * @param maxEstimatedOutputTokens cap on the output estimate; negative for none
   */
  public InFlightLoadProducer(String name, boolean addEstimatedOutputTokens, double outputRatio,
      long maxEstimatedOutputTokens) {
    super(TYPE, name);
    if (!(outputRatio >= 0) || Double.isInfinite(outputRatio)) {
      throw new IllegalArgumentException("outputRatio must be non-negative, got " + outputRatio);
    }
    this.addEstimatedOutputTokens = addEstimatedOutputTokens;
    this.outputRatio = outputRatio;
    this.maxEstimatedOutputTokens = maxEstimatedOutputTokens;
    this.chargesKey = TYPE + "/" + name() + ".charges";
    this.promptKey = TYPE + "/" + name() + ".promptTokens";
  }

  /**
   * Factory. Parameters: {@code addEstimatedOutputTokens} (false), {@code outputRatio} (1.5, ≥ 0),
   * {@code maxEstimatedOutputTokens} (none, ≥ 0), {@code prefixMatchInfoProducerName} (must name a declared plugin
   * when set) and {@code syncCrossReplicaState} (accepted; replicas here never share counts).
   */
  public static InFlightLoadProducer create(String name, PluginParameters p, PluginHandle handle) {
    p.requireOnly("addEstimatedOutputTokens", "outputRatio", "maxEstimatedOutputTokens",
        "prefixMatchInfoProducerName", "syncCrossReplicaState");
    long maxOutput = p.longValue("maxEstimatedOutputTokens", -1);
    if (p.has("maxEstimatedOutputTokens") && maxOutput < 0) {
      throw new IllegalArgumentException("maxEstimatedOutputTokens must be non-negative, got " + maxOutput);
    }
    p.boolValue("syncCrossReplicaState", true);
    Producers.requireDeclared(handle, p, "prefixMatchInfoProducerName");
    return new InFlightLoadProducer(name, p.boolValue("addEstimatedOutputTokens", false),
        p.doubleValue("outputRatio", DEFAULT_OUTPUT_RATIO), maxOutput);
  }

  /** What {@code endpoint} has in flight now. */
  public Load load(EndpointId endpoint) {
    return loads.getOrDefault(endpoint, Load.ZERO);
  }

  /** The tokens {@code request} would add to {@code candidate}'s load (llm-d's UncachedRequestTokens). */
  public long requestTokens(InferenceRequest request, Candidate candidate) {
    long prompt = promptTokens(request);
    long tokens = uncached(prompt, candidate.prefixMatch());
    if (addEstimatedOutputTokens) {
      tokens += estimatedOutput(prompt, request.body() == null ? 0 : request.body().maxOutputTokens());
    }
    return tokens;
  }

  @Override
  public void preRequest(InferenceRequest request, SchedulingResult result) {
    releaseAll(request.attribute(chargesKey));
    List<Charge> charges = new ArrayList<>();
    for (Map.Entry<String, ProfileRunResult> e : result.profileResults().entrySet()) {
      if (e.getValue() == null || e.getValue().targets().isEmpty()) {
        continue;
      }
      Candidate target = e.getValue().targets().get(0);
      long tokens = requestTokens(request, target);
      add(target.endpoint().id(), 1, tokens);
      charges.add(new Charge(e.getKey(), target.endpoint().id(), new AtomicLong(tokens), new AtomicBoolean(true)));
    }
    request.attribute(chargesKey, List.copyOf(charges));
  }

  @Override
  public void responseReceived(InferenceRequest request, SchedulingResult result, int status,
      EndpointState servedBy) {
    List<Charge> charges = request.attribute(chargesKey);
    if (charges == null) {
      return;
    }
    for (Charge c : charges) {
      if (c.profile().equals(PREFILL_PROFILE)) {
        release(c);
      } else if (!addEstimatedOutputTokens) {
        releaseTokens(c);
      }
    }
  }

  @Override
  public void responseComplete(InferenceRequest request, EndpointState servedBy, ResponseOutcome outcome) {
    releaseAll(request.attribute(chargesKey));
  }

  /** llm-d's estimate: the prompt tokens not covered by the match, including a tail past the matched blocks. */
  static long uncached(long promptTokens, PrefixMatch match) {
    if (match == null || match.blockSizeTokens() <= 0) {
      return Math.max(0, promptTokens);
    }
    long blockSize = match.blockSizeTokens();
    long indexed = match.totalBlocks() * blockSize;
    long matched = match.matchBlocks() * blockSize;
    return Math.max(0, indexed - matched) + Math.max(0, promptTokens - indexed);
  }

  /** {@code round(prompt × outputRatio)}, capped by the client's limit (0: none) and the configured one. */
  long estimatedOutput(long promptTokens, int clientMaxTokens) {
    if (promptTokens <= 0) {
      return 0;
    }
    long estimate = Math.round(promptTokens * outputRatio);
    if (clientMaxTokens > 0) {
      estimate = Math.min(estimate, clientMaxTokens);
    }
    if (maxEstimatedOutputTokens >= 0) {
      estimate = Math.min(estimate, maxEstimatedOutputTokens);
    }
    return estimate;
  }

  private long promptTokens(InferenceRequest request) {
    Long cached = request.attribute(promptKey);
    if (cached != null) {
      return cached;
    }
    int bytes = request.body() == null ? 0 : request.body().userInputBytes().length;
    long tokens = (bytes + PrefixHasher.AVERAGE_CHARACTERS_PER_TOKEN - 1) / PrefixHasher.AVERAGE_CHARACTERS_PER_TOKEN;
    request.attribute(promptKey, tokens);
    return tokens;
  }

  private void releaseAll(List<Charge> charges) {
    if (charges != null) {
      charges.forEach(this::release);
    }
  }

  private void release(Charge c) {
    releaseTokens(c);
    if (c.request().getAndSet(false)) {
      add(c.endpoint(), -1, 0);
    }
  }

  private void releaseTokens(Charge c) {
    long tokens = c.tokens().getAndSet(0);
    if (tokens != 0) {
      add(c.endpoint(), 0, -tokens);
    }
  }

  /** Adds to an endpoint's load, never below zero; an endpoint with nothing in flight leaves the map. */
  private void add(EndpointId endpoint, long requests, long tokens) {
    loads.compute(endpoint, (k, v) -> {
      Load old = v == null ? Load.ZERO : v;
      Load next = new Load(Math.max(0, old.requests() + requests), Math.max(0, old.tokens() + tokens));
      return next.requests() == 0 && next.tokens() == 0 ? null : next;
    });
  }
}
