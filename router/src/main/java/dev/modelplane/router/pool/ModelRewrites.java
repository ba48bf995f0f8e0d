package dev.modelplane.router.pool;

import dev.modelplane.api.gie.v1alpha2.InferenceModelRewriteRule;
import dev.modelplane.api.gie.v1alpha2.InferenceModelRewriteSpec;
import dev.modelplane.api.gie.v1alpha2.ModelRewriteMatch;
import dev.modelplane.api.gie.v1alpha2.TargetModel;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * The InferenceModelRewrites of one pool, compiled: which model name a request asking for a given model is sent on
 * with. For a model, a rule naming it exactly beats a rule without matches (which applies to every model no exact rule
 * claims); between rules of the same kind the older rewrite object wins (then the name, alphabetically), and within
 * one object the earlier rule. The chosen rule's targets are picked in proportion to their weights; targets without a
 * weight share equally when no target of the rule has one, and are never picked when another target has one.
 * Immutable.
 */
public final class ModelRewrites {
  /** No rewrites: every model goes on as asked. */
  public static final ModelRewrites NONE = new ModelRewrites(Map.of(), null);

  /**
   * One InferenceModelRewrite object.
   *
   * @param name the object's name (ties between objects created at the same second)
   * @param created its creation time (older wins)
   * @param spec its rules
   */
  public record Source(String name, Instant created, InferenceModelRewriteSpec spec) {
  }

  private record Choice(List<String> models, long[] cumulative) {
    String pick(RandomGenerator random) {
      long total = cumulative[cumulative.length - 1];
      long x = random.nextLong(total);
      for (int i = 0; i < cumulative.length; i++) {
        if (x < cumulative[i]) {
          return models.get(i);
        }
      }
      return models.get(models.size() - 1);
    }
  }

  private final Map<String, Choice> exact;
  private final Choice generic;

  private ModelRewrites(Map<String, Choice> exact, Choice generic) {
    this.exact = exact;
    this.generic = generic;
  }

  /** Compiles the rewrites of one pool. */
  public static ModelRewrites of(List<Source> sources) {
    List<Source> ordered = new ArrayList<>(sources);
    ordered.sort(Comparator.comparing((Source s) -> s.created() == null ? Instant.MAX : s.created())
        .thenComparing(Source::name));
    Map<String, Choice> exact = new HashMap<>();
    Choice generic = null;
    for (Source s : ordered) {
      if (s.spec() == null || s.spec().rules() == null) {
        continue;
      }
      for (InferenceModelRewriteRule rule : s.spec().rules()) {
        Choice choice = choice(rule.targets());
        if (choice == null) {
          continue;
        }
        List<ModelRewriteMatch> matches = rule.matches() == null ? List.of() : rule.matches();
        if (matches.isEmpty()) {
          generic = generic == null ? choice : generic;
        }
        for (ModelRewriteMatch m : matches) {
          if (m != null && m.model() != null && m.model().value() != null) {
            exact.putIfAbsent(m.model().value(), choice);
          }
        }
      }
    }
    return exact.isEmpty() && generic == null ? NONE : new ModelRewrites(Map.copyOf(exact), generic);
  }

  private static Choice choice(List<TargetModel> targets) {
    if (targets == null) {
      return null;
    }
    boolean weighted = targets.stream().anyMatch(t -> t != null && t.weight() != null && t.weight() > 0);
    List<String> models = new ArrayList<>();
    List<Long> weights = new ArrayList<>();
    for (TargetModel t : targets) {
      if (t == null || t.modelRewrite() == null || t.modelRewrite().isEmpty()) {
        continue;
      }
      long w = weighted ? (t.weight() == null ? 0 : Math.max(0, t.weight())) : 1;
      if (w > 0) {
        models.add(t.modelRewrite());
        weights.add(w);
      }
    }
    if (models.isEmpty()) {
      return null;
    }
    long[] cumulative = new long[weights.size()];
    long sum = 0;
    for (int i = 0; i < cumulative.length; i++) {
      sum += weights.get(i);
      cumulative[i] = sum;
    }
    return new Choice(List.copyOf(models), cumulative);
  }

  /** Whether there are no rules. */
  public boolean isEmpty() {
    return this == NONE;
  }

  /** The model names rules match exactly: names clients may ask this pool for. */
  public Set<String> matchedModels() {
    return exact.keySet();
  }

  /**
   * The model a request asking for {@code model} is sent on with, or {@code null} when no rule applies (or the
   * request names no model).
   *
   * @param random the source of the weighted pick
   */
  public String rewrite(String model, RandomGenerator random) {
    Choice choice = model == null || model.isEmpty() ? null : exact.getOrDefault(model, generic);
    return choice == null ? null : choice.pick(random);
  }
}
