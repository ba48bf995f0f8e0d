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

/** {@code prefix-cache-scorer}: {@code matchBlocks / totalBlocks}; 0 when the prompt has no full block. */
public final class PrefixCacheScorer extends NamedPlugin implements Scorer {
  public static final String TYPE = "prefix-cache-scorer";

  /** Factory; the prefix parameters belong to {@code approx-prefix-cache-producer}. */
  public static PrefixCacheScorer create(String name, PluginParameters parameters, PluginHandle handle) {
    return new PrefixCacheScorer(name);
  }

  public PrefixCacheScorer(String name) {
    super(TYPE, name);
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
