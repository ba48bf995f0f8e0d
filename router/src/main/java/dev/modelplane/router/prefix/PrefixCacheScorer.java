package dev.modelplane.router.prefix;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.PrefixMatch;
import dev.modelplane.router.scheduling.Scorer;
import dev.modelplane.router.scheduling.ScorerCategory;
import java.util.List;

/**
 * {@code prefix-cache-scorer}: {@code matchBlocks / totalBlocks} of each candidate's prefix match; 0 when the prompt
 * has no full block. The match is the approximate producer's, or the precise producer's where one is configured and
 * its pool publishes KV-cache events (it refines the approximate match). {@code prefixMatchInfoProducerName} (llm-d's
 * parameter) names the producer the scorer reads; the config loader checks that it names one.
 */
public final class PrefixCacheScorer extends NamedPlugin implements Scorer {
  public static final String TYPE = "prefix-cache-scorer";

  private final String producerName;

  /** Factory; the prefix parameters belong to {@code approx-prefix-cache-producer}. */
  public static PrefixCacheScorer create(String name, PluginParameters parameters, PluginHandle handle) {
    return new PrefixCacheScorer(name, parameters.text("prefixMatchInfoProducerName", null));
  }

  public PrefixCacheScorer(String name) {
    this(name, null);
  }

  public PrefixCacheScorer(String name, String producerName) {
    super(TYPE, name);
    this.producerName = producerName;
  }

  /** The producer named by {@code prefixMatchInfoProducerName}, or null when unset. */
  public String producerName() {
    return producerName;
  }

  @Override
  public ScorerCategory category() {
    return ScorerCategory.AFFINITY;
  }

  @Override
  public void score(CycleState state, InferenceRequest request, List<Candidate> candidates, double[] scores) {
    for (int i = 0; i < candidates.size(); i++) {
      PrefixMatch m = candidates.get(i).prefixMatch();
      scores[i] = m == null || m.totalBlocks() == 0 ? 0.0 : (double) m.matchBlocks() / m.totalBlocks();
    }
  }
}
