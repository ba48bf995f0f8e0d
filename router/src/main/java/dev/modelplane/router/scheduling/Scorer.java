package dev.modelplane.router.scheduling;

import dev.modelplane.router.plugin.Plugin;
import java.util.List;

/**
 * Scores each candidate in [0, 1]; the profile clamps scores to that range and adds them up, each times its weight.
 */
public interface Scorer extends Plugin {
  ScorerCategory category();

  /** Writes the score of {@code candidates.get(i)} into {@code scores[i]}. */
  void score(CycleState state, InferenceRequest request, List<Candidate> candidates, double[] scores);
}
