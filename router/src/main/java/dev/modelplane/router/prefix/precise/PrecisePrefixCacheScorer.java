package dev.modelplane.router.prefix.precise;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.pool.EndpointListener;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.PrepareDataPlugin;
import dev.modelplane.router.scheduling.PreRequestPlugin;
import dev.modelplane.router.scheduling.SchedulingResult;
import dev.modelplane.router.scheduling.Scorer;
import dev.modelplane.router.scheduling.ScorerCategory;
import java.util.List;

/**
 * {@code precise-prefix-cache-scorer} (llm-d's name, kept for the configurations written before llm-d split it): a
 * {@link PrecisePrefixCacheProducer} with its parameters and a scorer of its match in one plugin, so one entry in a
 * profile both keeps the index and scores each endpoint by the share of the prompt's full blocks its server holds.
 * llm-d's current form is the producer plus {@code prefix-cache-scorer} with
 * {@code prefixMatchInfoProducerName: precise-prefix-cache-producer}; both score alike.
 */
public final class PrecisePrefixCacheScorer extends NamedPlugin implements Scorer, PrepareDataPlugin,
    PreRequestPlugin, EndpointListener, AutoCloseable {
  public static final String TYPE = "precise-prefix-cache-scorer";

  private final PrecisePrefixCacheProducer producer;

  public PrecisePrefixCacheScorer(String name, PrecisePrefixConfig config, PluginEnvironment environment) {
    super(TYPE, name);
    this.producer = new PrecisePrefixCacheProducer(TYPE, name, config, environment);
  }

  /** Factory; parameters as {@link PrecisePrefixConfig#from}. */
  public static PrecisePrefixCacheScorer create(String name, PluginParameters parameters, PluginHandle handle) {
    return new PrecisePrefixCacheScorer(name, PrecisePrefixConfig.from(parameters), handle.environment());
  }

  public PrecisePrefixConfig config() {
    return producer.config();
  }

  /** The producer this scorer keeps its index in. */
  public PrecisePrefixCacheProducer producer() {
    return producer;
  }

  @Override
  public ScorerCategory category() {
    return ScorerCategory.AFFINITY;
  }

  @Override
  public void prepareRequestData(InferenceRequest request, List<Candidate> candidates) {
    producer.prepareRequestData(request, candidates);
  }

  @Override
  public boolean refines() {
    return producer.refines();
  }

  @Override
  public void score(CycleState state, InferenceRequest request, List<Candidate> candidates, double[] scores) {
    producer.score(request, candidates, scores);
  }

  @Override
  public void preRequest(InferenceRequest request, SchedulingResult result) {
    producer.preRequest(request, result);
  }

  /** Each pool's index, for {@code /metrics}. */
  public List<PoolIndex.Status> statuses() {
    return producer.statuses();
  }

  /** The index of {@code pool}, or null while it has no endpoint. */
  PoolIndex index(PoolKey pool) {
    return producer.index(pool);
  }

  @Override
  public void added(EndpointPool pool, EndpointState endpoint) {
    producer.added(pool, endpoint);
  }

  @Override
  public void removed(EndpointPool pool, EndpointState endpoint) {
    producer.removed(pool, endpoint);
  }

  @Override
  public void replaced(EndpointPool pool, EndpointState before, EndpointState after) {
    producer.replaced(pool, before, after);
  }

  @Override
  public void close() {
    producer.close();
  }
}
