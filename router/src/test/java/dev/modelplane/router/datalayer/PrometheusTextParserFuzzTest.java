package dev.modelplane.router.datalayer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.common.metrics.PrometheusSample;
import dev.modelplane.common.metrics.PrometheusTextParser;
import dev.modelplane.testsupport.Hostile;
import dev.modelplane.testsupport.Mutations;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link PrometheusTextParser} on generated expositions, mutations of them and random text: it never throws (a bad
 * line is skipped, as a scrape must not fail on one series), returns only wanted families, and never hangs.
 */
class PrometheusTextParserFuzzTest {
  private static final List<String> NAMES = List.of("vllm:num_requests_waiting", "vllm:num_requests_running",
      "vllm:kv_cache_usage_perc", "vllm:cache_config_info", "vllm:lora_requests_info", "other_metric");
  private static final Set<String> WANTED = Set.copyOf(NAMES.subList(0, 5));
  private static final List<String> VALUES = List.of("0", "1", "-1", "0.5", "1e308", "-1e-308", "NaN", "+Inf",
      "-Inf", "Inf", "0x1p3", "1_000", "", "1.7976931348623157e309", "9".repeat(400));
  private static final Mutations MUTATIONS = new Mutations(List.of("{", "}", "\"", "=", ",", "\\", "\\\"", "\n", " ",
      "#", "\r", "\t", "NaN", "{a=\"", "\u00e9"), 1 << 20);

  @Property(tries = 3000, seed = "7351", shrinking = ShrinkingMode.OFF)
  void parsesWithoutThrowing(@ForAll("expositions") String valid, @ForAll("expositions") String donor,
      @ForAll("randoms") Random random, @ForAll("modes") String mode) {
    String text = switch (mode) {
      case "valid" -> valid;
      case "random" -> {
        byte[] b = new byte[random.nextInt(2000)];
        random.nextBytes(b);
        yield new String(b, StandardCharsets.ISO_8859_1);
      }
      default -> new String(MUTATIONS.mutate(valid.getBytes(StandardCharsets.UTF_8),
          donor.getBytes(StandardCharsets.UTF_8), random), StandardCharsets.UTF_8);
    };
    Statistics.label("outcome").collect(Hostile.outcome(() -> {
      Map<String, List<PrometheusSample>> out = PrometheusTextParser.parse(text, WANTED);
      assertThat(WANTED).containsAll(out.keySet());
      out.values().forEach(samples -> samples.forEach(s -> assertThat(s.labels()).doesNotContainValue(null)));
      return out;
    }));
  }

  /**
   * A parser that returned nothing would pass the property above; this one fails it. Every sample line of a
   * well-formed page is parsed with its labels and value, for pages of a few lines up to several MiB.
   */
  @Property(tries = 100, seed = "7352", shrinking = ShrinkingMode.OFF)
  void wellFormedPagesParseCompletely(@ForAll("randoms") Random r) {
    int lines = r.nextInt(4) == 0 ? 20_000 + r.nextInt(60_000) : 1 + r.nextInt(50);
    StringBuilder b = new StringBuilder("# HELP vllm:num_requests_waiting Requests waiting.\n");
    Map<String, Double> expected = new java.util.HashMap<>();
    for (int i = 0; i < lines; i++) {
      String name = NAMES.get(r.nextInt(NAMES.size()));
      double value = r.nextInt(1000) / 4.0;
      String model = "model-" + i + (r.nextBoolean() ? "-\u00e9" : "");
      b.append(name).append("{model_name=\"").append(model).append("\",engine=\"").append(r.nextInt(4))
          .append("\"} ").append(value).append(r.nextBoolean() ? " 1700000000000" : "").append('\n');
      if (WANTED.contains(name)) {
        expected.put(name + "/" + model, value);
      }
    }
    Map<String, List<PrometheusSample>> out = PrometheusTextParser.parse(b.toString(), WANTED);
    Map<String, Double> parsed = new java.util.HashMap<>();
    out.forEach((name, samples) -> samples.forEach(smp -> parsed.put(name + "/" + smp.labels().get("model_name"),
        smp.value())));
    assertThat(parsed).isEqualTo(expected);
    Statistics.label("size").collect(b.length() < 1 << 20 ? "<1MiB" : ">=1MiB");
  }

  @Provide
  Arbitrary<String> modes() {
    return Arbitraries.of("valid", "mutated", "mutated", "random");
  }

  @Provide
  Arbitrary<Random> randoms() {
    return Arbitraries.randoms();
  }

  @Provide
  Arbitrary<String> expositions() {
    return Arbitraries.randoms().map(r -> {
      StringBuilder b = new StringBuilder();
      int lines = r.nextInt(30);
      for (int i = 0; i < lines; i++) {
        String name = NAMES.get(r.nextInt(NAMES.size()));
        if (r.nextInt(5) == 0) {
          b.append("# TYPE ").append(name).append(" gauge\n");
        }
        b.append(name);
        int labels = r.nextInt(4);
        if (labels > 0) {
          b.append('{');
          for (int l = 0; l < labels; l++) {
            b.append(l == 0 ? "" : ",").append("l").append(l).append("=\"")
                .append(r.nextBoolean() ? "v" : "a\\\"b\\\\c\\n\u00e9").append('"');
          }
          b.append('}');
        }
        b.append(' ').append(VALUES.get(r.nextInt(VALUES.size())));
        if (r.nextInt(4) == 0) {
          b.append(' ').append(r.nextBoolean() ? String.valueOf(r.nextLong()) : "99999999999999999999");
        }
        b.append(r.nextInt(6) == 0 ? "\r\n" : "\n");
      }
      return b.toString();
    });
  }
}
