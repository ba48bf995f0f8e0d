package dev.modelplane.router.scheduling.plugins;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import dev.modelplane.router.scheduling.Picker;
import dev.modelplane.router.scheduling.ProfileRunResult;
import dev.modelplane.router.scheduling.ScoredCandidate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * {@code max-score-picker}: shuffle (so ties break at random), stable sort by score descending, keep the first
 * {@code maxNumOfEndpoints} (default 1).
 */
public final class MaxScorePicker extends NamedPlugin implements Picker {
  public static final String TYPE = "max-score-picker";

  /** Factory; parameter {@code maxNumOfEndpoints} (default 1). */
  public static MaxScorePicker create(String name, PluginParameters parameters, PluginHandle handle) {
    return new MaxScorePicker(name, parameters.intValue("maxNumOfEndpoints", 1), handle.environment().random());
  }

  private final int maxNumOfEndpoints;
  private final Supplier<RandomGenerator> random;

  public MaxScorePicker(String name, int maxNumOfEndpoints, Supplier<RandomGenerator> random) {
    super(TYPE, name);
    this.maxNumOfEndpoints = maxNumOfEndpoints <= 0 ? 1 : maxNumOfEndpoints;
    this.random = random;
  }

  public int maxNumOfEndpoints() {
    return maxNumOfEndpoints;
  }

  @Override
  public ProfileRunResult pick(CycleState state, List<ScoredCandidate> scored) {
    if (maxNumOfEndpoints == 1) {
      return new ProfileRunResult(List.of(pickOne(scored)));
    }
    Collections.shuffle(scored, random.get());
    scored.sort(Comparator.comparingDouble(ScoredCandidate::score).reversed());
    int n = Math.min(maxNumOfEndpoints, scored.size());
    List<Candidate> targets = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      targets.add(scored.get(i).candidate());
    }
    return new ProfileRunResult(targets);
  }

  /** Same distribution as shuffle-then-stable-sort for one pick: uniform among the top scores (reservoir). */
  private Candidate pickOne(List<ScoredCandidate> scored) {
    RandomGenerator rnd = random.get();
    double best = Double.NEGATIVE_INFINITY;
    Candidate chosen = null;
    int ties = 0;
    for (ScoredCandidate sc : scored) {
      if (sc.score() > best) {
        best = sc.score();
        chosen = sc.candidate();
        ties = 1;
      } else if (sc.score() == best && rnd.nextInt(++ties) == 0) {
        chosen = sc.candidate();
      }
    }
    return chosen;
  }
}
