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
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * {@code weighted-random-picker}: weighted sampling without replacement by A-Res (key {@code U^(1/score)}, highest
 * keys win); candidates scoring ≤ 0 get key 0; uniform random when no score is positive.
 */
public final class WeightedRandomPicker extends NamedPlugin implements Picker {
  public static final String TYPE = "weighted-random-picker";

  /** Factory; parameter {@code maxNumOfEndpoints} (default 1). */
  public static WeightedRandomPicker create(String name, PluginParameters parameters, PluginHandle handle) {
    return new WeightedRandomPicker(name, parameters.intValue("maxNumOfEndpoints", 1), handle.environment().random());
  }

  private final int maxNumOfEndpoints;
  private final Supplier<RandomGenerator> random;
  private final RandomPicker fallback;

  public WeightedRandomPicker(String name, int maxNumOfEndpoints, Supplier<RandomGenerator> random) {
    super(TYPE, name);
    this.maxNumOfEndpoints = maxNumOfEndpoints <= 0 ? 1 : maxNumOfEndpoints;
    this.random = random;
    this.fallback = new RandomPicker(name, this.maxNumOfEndpoints, random);
  }

  @Override
  public ProfileRunResult pick(CycleState state, List<ScoredCandidate> scored) {
    if (scored.stream().noneMatch(s -> s.score() > 0)) {
      return fallback.pick(state, scored);
    }
    RandomGenerator rnd = random.get();
    record Keyed(Candidate candidate, double key) {
    }
    Keyed[] keyed = new Keyed[scored.size()];
    for (int i = 0; i < keyed.length; i++) {
      ScoredCandidate sc = scored.get(i);
      double key = 0;
      if (sc.score() > 0) {
        double u = rnd.nextDouble();
        if (u == 0) {
          u = 1e-10;
        }
        key = Math.pow(u, 1.0 / sc.score());
      }
      keyed[i] = new Keyed(sc.candidate(), key);
    }
    Arrays.sort(keyed, Comparator.comparingDouble(Keyed::key).reversed());
    int n = Math.min(maxNumOfEndpoints, keyed.length);
    List<Candidate> targets = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      targets.add(keyed[i].candidate());
    }
    return new ProfileRunResult(targets);
  }
}
