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
import java.util.List;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/** {@code random-picker}: uniformly random, ignoring scores; keeps {@code maxNumOfEndpoints} (default 1). */
public final class RandomPicker extends NamedPlugin implements Picker {
  public static final String TYPE = "random-picker";

  /** Factory; parameter {@code maxNumOfEndpoints} (default 1). */
  public static RandomPicker create(String name, PluginParameters parameters, PluginHandle handle) {
    return new RandomPicker(name, parameters.intValue("maxNumOfEndpoints", 1), handle.environment().random());
  }

  private final int maxNumOfEndpoints;
  private final Supplier<RandomGenerator> random;

  public RandomPicker(String name, int maxNumOfEndpoints, Supplier<RandomGenerator> random) {
    super(TYPE, name);
    this.maxNumOfEndpoints = maxNumOfEndpoints <= 0 ? 1 : maxNumOfEndpoints;
    this.random = random;
  }

  @Override
  public ProfileRunResult pick(CycleState state, List<ScoredCandidate> scored) {
    RandomGenerator rnd = random.get();
    if (maxNumOfEndpoints == 1) {
      return new ProfileRunResult(List.of(scored.get(rnd.nextInt(scored.size())).candidate()));
    }
    Collections.shuffle(scored, rnd);
    int n = Math.min(maxNumOfEndpoints, scored.size());
    List<Candidate> targets = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      targets.add(scored.get(i).candidate());
    }
    return new ProfileRunResult(targets);
  }
}
