package dev.modelplane.router.scheduling.plugins;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.Scorer;
import dev.modelplane.router.scheduling.ScorerCategory;
import java.util.List;

/**
 * {@code lora-affinity-scorer}: 1.0 when the target adapter is active on the endpoint; 0.8 when the endpoint has a
 * free adapter slot; 0.6 when the adapter is only waiting there; otherwise 0.
 */
public final class LoraAffinityScorer extends NamedPlugin implements Scorer {
  public static final String TYPE = "lora-affinity-scorer";

  /** Factory (no parameters). */
  public static LoraAffinityScorer create(String name, PluginParameters parameters, PluginHandle handle) {
    return new LoraAffinityScorer(name);
  }

  public LoraAffinityScorer(String name) {
    super(TYPE, name);
  }

  @Override
  public ScorerCategory category() {
    return ScorerCategory.AFFINITY;
  }

  @Override
  public void score(CycleState state, InferenceRequest request, List<Candidate> candidates, double[] scores) {
    String model = request.targetModel();
    for (int i = 0; i < candidates.size(); i++) {
      MetricsSnapshot m = candidates.get(i).metrics();
      if (m.activeModels().contains(model)) {
        scores[i] = 1.0;
      } else if (m.activeModels().size() + m.waitingModels().size() < m.maxActiveModels()) {
        scores[i] = 0.8;
      } else if (m.waitingModels().contains(model)) {
        scores[i] = 0.6;
      } else {
        scores[i] = 0.0;
      }
    }
  }
}
