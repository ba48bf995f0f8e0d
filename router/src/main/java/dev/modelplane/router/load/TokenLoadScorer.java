package dev.modelplane.router.load;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.Scorer;
import dev.modelplane.router.scheduling.ScorerCategory;
import java.util.List;

/**
 * {@code token-load-scorer} (llm-d's name and parameters): prefers the endpoint with the fewest tokens in flight,
 * counting those its {@link InFlightLoadProducer} holds there plus the ones this request would add there (its prompt
 * less the cached prefix). Score {@code 1 − min(1, tokens / queueThresholdTokens)}: 1 when idle, 0 from the threshold
 * on, linear between. A finer load signal than request counts, since it weighs each request by the prefill it costs.
 */
public final class TokenLoadScorer extends NamedPlugin implements Scorer {
  public static final String TYPE = "token-load-scorer";
  /** 128 requests of 32K tokens. */
  public static final long DEFAULT_QUEUE_THRESHOLD_TOKENS = 4_194_304;

  private final InFlightLoadProducer producer;
  private final double queueThresholdTokens;

  public TokenLoadScorer(String name, InFlightLoadProducer producer, long queueThresholdTokens) {
    super(TYPE, name);
    this.producer = producer;
    this.queueThresholdTokens = queueThresholdTokens > 0 ? queueThresholdTokens : DEFAULT_QUEUE_THRESHOLD_TOKENS;
  }

  /**
   * Factory. Parameters: {@code queueThresholdTokens} (4194304; zero or less takes the default, as in llm-d) and
   * {@code inFlightLoadProducerName} (the producer to read, {@code inflight-load-producer} by default, which must be
   * declared).
   */
  public static TokenLoadScorer create(String name, PluginParameters p, PluginHandle handle) {
    p.requireOnly("queueThresholdTokens", "inFlightLoadProducerName");
    long threshold = p.longValue("queueThresholdTokens", DEFAULT_QUEUE_THRESHOLD_TOKENS);
    return new TokenLoadScorer(name, Producers.inFlightLoad(handle, p, "inFlightLoadProducerName"), threshold);
  }

  @Override
  public ScorerCategory category() {
    return ScorerCategory.DISTRIBUTION;
  }

  @Override
  public void score(CycleState state, InferenceRequest request, List<Candidate> candidates, double[] scores) {
    for (int i = 0; i < scores.length; i++) {
      Candidate c = candidates.get(i);
      double tokens = producer.load(c.endpoint().id()).tokens() + producer.requestTokens(request, c);
      scores[i] = tokens <= 0 ? 1.0 : 1.0 - Math.min(tokens, queueThresholdTokens) / queueThresholdTokens;
    }
  }
}
