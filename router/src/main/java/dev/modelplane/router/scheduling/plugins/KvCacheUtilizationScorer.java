package dev.modelplane.router.scheduling.plugins;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.Scorer;
import dev.modelplane.router.scheduling.ScorerCategory;
import java.util.List;

/** {@code kv-cache-utilization-scorer}: {@code 1 − kvUsage}. */
public final class KvCacheUtilizationScorer extends NamedPlugin implements Scorer {
  public static final String TYPE = "kv-cache-utilization-scorer";

  /** Factory (no parameters). */
  public static KvCacheUtilizationScorer create(String name, PluginParameters parameters, PluginHandle handle) {
    return new KvCacheUtilizationScorer(name);
  }

  public KvCacheUtilizationScorer(String name) {
    super(TYPE, name);
  }

  @Override
  public ScorerCategory category() {
    return ScorerCategory.DISTRIBUTION;
  }

  @Override
  public void score(CycleState state, InferenceRequest request, List<Candidate> candidates, double[] scores) {
    for (int i = 0; i < candidates.size(); i++) {
      scores[i] = 1 - candidates.get(i).metrics().kvCacheUsage();
    }
  }
}
