package dev.modelplane.router.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.gie.v1alpha2.InferenceModelRewriteRule;
import dev.modelplane.api.gie.v1alpha2.InferenceModelRewriteSpec;
import dev.modelplane.api.gie.v1alpha2.ModelMatch;
import dev.modelplane.api.gie.v1alpha2.ModelMatchType;
import dev.modelplane.api.gie.v1alpha2.ModelRewriteMatch;
import dev.modelplane.api.gie.v1alpha2.PoolObjectReference;
import dev.modelplane.api.gie.v1alpha2.TargetModel;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ModelRewritesTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static InferenceModelRewriteRule rule(List<String> matches, TargetModel... targets) {
    return new InferenceModelRewriteRule(matches.stream()
        .map(m -> new ModelRewriteMatch(new ModelMatch(ModelMatchType.Exact, m))).toList(), Arrays.asList(targets));
  }

  private static TargetModel to(String model, Integer weight) {
    return new TargetModel(weight, model);
  }

  private static ModelRewrites.Source source(String name, Instant created, InferenceModelRewriteRule... rules) {
    return new ModelRewrites.Source(name, created, new InferenceModelRewriteSpec(
        new PoolObjectReference(null, null, "pool"), List.of(rules)));
  }

  private static Map<String, Integer> counts(ModelRewrites rewrites, String model, int n) {
    SplittableRandom random = new SplittableRandom(42);
    Map<String, Integer> counts = new HashMap<>();
    for (int i = 0; i < n; i++) {
      counts.merge(String.valueOf(rewrites.rewrite(model, random)), 1, Integer::sum);
    }
    return counts;
  }

  @Test
  void anExactRuleBeatsAGenericOneWhateverTheirOrder() {
    ModelRewrites r = ModelRewrites.of(List.of(
        source("catch-all", T0, rule(List.of(), to("everything-else", null))),
        source("exact", T0.plusSeconds(60), rule(List.of("llama"), to("llama-v2", null)))));
    assertThat(r.rewrite("llama", new SplittableRandom(1))).isEqualTo("llama-v2");
    assertThat(r.rewrite("mistral", new SplittableRandom(1))).isEqualTo("everything-else");
    assertThat(r.rewrite(null, new SplittableRandom(1))).isNull();
    assertThat(r.rewrite("", new SplittableRandom(1))).isNull();
    assertThat(r.matchedModels()).containsExactly("llama");
  }

  @Test
  void betweenObjectsTheOlderWinsThenTheNameThenTheEarlierRule() {
    ModelRewrites r = ModelRewrites.of(List.of(
        source("newer", T0.plusSeconds(1), rule(List.of("m"), to("from-newer", null))),
        source("b-same-age", T0, rule(List.of("n"), to("from-b", null))),
        source("a-same-age", T0, rule(List.of("n"), to("from-a", null)),
            rule(List.of("m"), to("from-a-second-rule", null)), rule(List.of("m"), to("from-a-third-rule", null)))));
    assertThat(r.rewrite("m", new SplittableRandom(1))).isEqualTo("from-a-second-rule");
    assertThat(r.rewrite("n", new SplittableRandom(1))).isEqualTo("from-a");
    assertThat(r.rewrite("other", new SplittableRandom(1))).isNull();
  }

  @Test
  void targetsArePickedByWeight() {
    ModelRewrites r = ModelRewrites.of(List.of(source("split", T0,
        rule(List.of("chat"), to("chat-stable", 70), to("chat-canary", 30)))));
    Map<String, Integer> counts = counts(r, "chat", 1000);
    assertThat(counts.keySet()).containsExactlyInAnyOrder("chat-stable", "chat-canary");
    assertThat(counts.get("chat-stable")).isBetween(650, 750);
  }

  @Test
  void withoutWeightsTargetsShareEquallyAndBesideWeightedOnesAreNeverPicked() {
    ModelRewrites even = ModelRewrites.of(List.of(source("even", T0,
        rule(List.of("m"), to("a", null), to("b", null)))));
    assertThat(counts(even, "m", 1000).get("a")).isBetween(450, 550);
    ModelRewrites mixed = ModelRewrites.of(List.of(source("mixed", T0,
        rule(List.of("m"), to("weighted", 5), to("unweighted", null)))));
    assertThat(counts(mixed, "m", 200)).containsOnlyKeys("weighted");
  }

  @Test
  void noRulesMeansNoRewrite() {
    assertThat(ModelRewrites.of(List.of())).isSameAs(ModelRewrites.NONE);
    assertThat(ModelRewrites.NONE.isEmpty()).isTrue();
    assertThat(ModelRewrites.NONE.rewrite("m", new SplittableRandom(1))).isNull();
    assertThat(ModelRewrites.of(List.of(new ModelRewrites.Source("empty", T0, null)))).isSameAs(ModelRewrites.NONE);
  }
}
