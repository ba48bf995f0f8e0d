package dev.modelplane.router.session;

import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.Scorer;
import dev.modelplane.router.scheduling.ScorerCategory;
import java.util.List;

/**
 * {@code session-affinity-scorer} (llm-d's name and parameters, see {@link SessionAffinity}): a soft preference.
 * The session's endpoint scores 1, every other candidate 0, so weightier scorers can still send the request elsewhere.
 */
public final class SessionAffinityScorer extends SessionAffinityPlugin implements Scorer {
  public static final String TYPE = "session-affinity-scorer";

  SessionAffinityScorer(String name, SessionAffinity affinity) {
    super(TYPE, name, affinity);
  }

  /** Factory; parameters as {@link SessionAffinity#from}. */
  public static SessionAffinityScorer create(String name, PluginParameters p, PluginHandle handle) {
    return new SessionAffinityScorer(name,
        SessionAffinity.from(TYPE + "/" + name, p, handle.environment().nanoClock()));
  }

  @Override
  public ScorerCategory category() {
    return ScorerCategory.AFFINITY;
  }

  @Override
  public void score(CycleState state, InferenceRequest request, List<Candidate> candidates, double[] scores) {
    Candidate preferred = affinity.choose(request, candidates);
    for (int i = 0; i < scores.length; i++) {
      scores[i] = candidates.get(i) == preferred ? 1.0 : 0.0;
    }
  }
}
