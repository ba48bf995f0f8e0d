package dev.modelplane.router.config;

import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.testsupport.Hostile;
import dev.modelplane.testsupport.Mutations;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.statistics.Statistics;

/**
 * The picker's config loader ({@link ConfigLoader}, {@link ConfigValidator}, every built-in plugin's parameters) on
 * generated EndpointPickerConfigs, mutations of their YAML and random text: a scheduling setup, or an
 * {@link IllegalArgumentException} with a message; never another exception, never a hang.
 */
class ConfigLoaderFuzzTest {
  private static final List<String> PARAMETERS = List.of("allowsNoLabel", "autoTune", "blockSize", "blockSizeTokens",
      "concurrencyMode", "defaultEngine", "engineConfigs", "forgettingFactor", "headroom", "kvCacheUtilThreshold",
      "kvUsageSpec", "label", "lruCapacityPerServer", "maxCeiling", "maxConcurrency", "maxNumOfEndpoints",
      "maxPrefixBlocksToMatch", "maxPrefixTokensToMatch", "maxTokenConcurrency", "metricsStalenessThreshold",
      "minCeiling", "name", "profiles", "queueDepthThreshold", "queuedRequestsSpec", "threshold", "validValues",
      "decodeProfile", "prefillProfile", "deciderPluginName", "nonCachedTokens", "speedFactorWeight", "tpotWeight",
      "runningRequestsSpec", "loraSpec", "cacheInfoSpec", "engineLabelKey", "shedSheddable", "defaultOutputTokens",
      "affinityThreshold", "explorationProbability", "maxTTFTPenaltyMs", "ttftSource", "peakPrefillThroughput",
      "inFlightLoadProducerName", "prefixMatchInfoProducerName", "queueThresholdTokens", "addEstimatedOutputTokens",
      "outputRatio", "maxEstimatedOutputTokens", "strategy", "profileName", "encodedEndpointHeaderConfig",
      "sessionIdConfig", "headerName", "cookieName");
  private static final List<String> VALUES = List.of("0", "-1", "1", "2", "0.5", "1e308", "-1e308", ".nan", ".inf",
      "99999999999999999999", "true", "no", "''", "\"\"", "null", "~", "500ms", "-5s", "1h", "1Gi", "abc",
      "[1, 2]", "[]", "{}", "{a: 1}", "[{name: x}]", "\"\\u00e9\\U0001F600\"", "x{kind=gpu}", "'{'");
  private static final Mutations MUTATIONS = new Mutations(List.of("\n", "\n- ", ": ", "- ", "  ", "{", "}", "[", "]",
      "&a ", "*a", "!!binary ", "!!java.lang.Object ", "? ", "|", ">", "#", "'", "\"", "\t", "---\n", "<<: *a"),
      1 << 16);
  private static final PluginRegistry REGISTRY = PluginRegistry.builtIn();
  private static final List<String> TYPES = REGISTRY.types().stream().sorted().toList();

  @Property(tries = 2500, seed = "7341", shrinking = ShrinkingMode.OFF)
  void generatedConfigs(@ForAll("configs") String yaml) {
    Statistics.label("outcome").collect(load(yaml));
  }

  @Property(tries = 2500, seed = "7342", shrinking = ShrinkingMode.OFF)
  void mutatedConfigs(@ForAll("configs") String valid, @ForAll("configs") String donor,
      @ForAll("randoms") Random random) {
    String yaml = new String(MUTATIONS.mutate(valid.getBytes(StandardCharsets.UTF_8),
        donor.getBytes(StandardCharsets.UTF_8), random), StandardCharsets.UTF_8);
    Statistics.label("outcome").collect(load(yaml));
  }

  @Property(tries = 150, seed = "7343", shrinking = ShrinkingMode.OFF)
  void deepNestingAndAliases(@ForAll("randoms") Random random) {
    int depth = 1 + random.nextInt(5000);
    String yaml = switch (random.nextInt(3)) {
      case 0 -> "plugins:\n- type: queue-scorer\n  parameters: " + "[".repeat(depth) + "]".repeat(depth) + "\n";
      case 1 -> "plugins:\n- type: queue-scorer\n  parameters: " + "{a: ".repeat(depth) + "1" + "}".repeat(depth)
          + "\n";
      default -> {
        StringBuilder b = new StringBuilder("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for (int i = 1; i < 1 + random.nextInt(12); i++) {
          b.append("a").append(i).append(": &a").append(i).append(" [").append(("*a" + (i - 1) + ", ").repeat(9))
              .append("*a").append(i - 1).append("]\n");
        }
        yield "plugins:\n- type: queue-scorer\n  parameters:\n    " + b.toString().replace("\n", "\n    ");
      }
    };
    Statistics.label("outcome").collect(load(yaml));
  }

  /**
   * A loader that refused everything would pass the properties above; this one fails it. Configs built only of
   * valid parts load, however many plugins they name (up to 500).
   */
  @Property(tries = 200, seed = "7344", shrinking = ShrinkingMode.OFF)
  void validConfigsLoadWhateverTheirSize(@ForAll("randoms") Random r) {
    List<String> scorers = List.of("queue-scorer", "kv-cache-utilization-scorer", "prefix-cache-scorer");
    int plugins = r.nextInt(4) == 0 ? 100 + r.nextInt(400) : 1 + r.nextInt(6);
    StringBuilder y = new StringBuilder(r.nextBoolean() ? "featureGates: [flowControl]\n" : "").append("plugins:\n");
    for (int i = 0; i < plugins; i++) {
      y.append("- type: ").append(scorers.get(r.nextInt(scorers.size()))).append("\n  name: s").append(i)
          .append('\n');
    }
    if (r.nextBoolean()) { // else GIE's defaulting: one profile with every plugin
      y.append("schedulingProfiles:\n- name: default\n  plugins:\n");
      for (int k = 0; k < plugins; k++) {
        if (k == 0 || r.nextBoolean()) {
          y.append("  - pluginRef: s").append(k).append("\n    weight: ").append(1 + r.nextInt(5)).append('\n');
        }
      }
    }
    String yaml = y.toString();
    try {
      new ConfigLoader(REGISTRY, PluginEnvironment.direct(), null).load(yaml);
    } catch (IllegalArgumentException e) {
      throw new AssertionError("a valid config was refused: " + e.getMessage() + "\n"
          + (yaml.length() > 2000 ? yaml.substring(0, 2000) : yaml), e);
    }
    Statistics.label("plugins").collect(plugins < 10 ? "<10" : ">=100");
  }

  private static String load(String yaml) {
    return Hostile.outcome(() -> new ConfigLoader(REGISTRY, PluginEnvironment.direct(), null).load(yaml),
        IllegalArgumentException.class);
  }

  @Provide
  Arbitrary<Random> randoms() {
    return Arbitraries.randoms();
  }

  @Provide
  Arbitrary<String> configs() {
    return Arbitraries.randoms().map(ConfigLoaderFuzzTest::config);
  }

  /** A config of 0 to 6 random built-in plugins with random parameters, profiles and sections. */
  private static String config(Random r) {
    StringBuilder y = new StringBuilder();
    if (r.nextBoolean()) {
      y.append("apiVersion: inference.networking.x-k8s.io/v1alpha1\nkind: EndpointPickerConfig\n");
    }
    boolean flowControl = r.nextInt(3) == 0;
    if (flowControl) {
      y.append("featureGates: [flowControl]\n");
    }
    List<String> names = new ArrayList<>();
    int plugins = r.nextInt(7);
    y.append("plugins:").append(plugins == 0 ? " []\n" : "\n");
    for (int i = 0; i < plugins; i++) {
      String type = TYPES.get(r.nextInt(TYPES.size()));
      String name = r.nextBoolean() ? type : "p" + i;
      names.add(name);
      y.append("- type: ").append(type).append('\n');
      if (!name.equals(type)) {
        y.append("  name: ").append(name).append('\n');
      }
      int parameters = r.nextInt(4);
      if (parameters > 0) {
        y.append("  parameters:\n");
        for (int j = 0; j < parameters; j++) {
          y.append("    ").append(PARAMETERS.get(r.nextInt(PARAMETERS.size()))).append(": ")
              .append(VALUES.get(r.nextInt(VALUES.size()))).append('\n');
        }
      }
    }
    if (!names.isEmpty() && r.nextBoolean()) {
      y.append("schedulingProfiles:\n");
      int profiles = 1 + r.nextInt(2);
      for (int p = 0; p < profiles; p++) {
        y.append("- name: profile").append(p).append("\n  plugins:\n");
        for (int k = 0; k <= r.nextInt(3); k++) {
          y.append("  - pluginRef: ").append(names.get(r.nextInt(names.size()))).append('\n');
          if (r.nextBoolean()) {
            y.append("    weight: ").append(VALUES.get(r.nextInt(5))).append('\n');
          }
        }
      }
    }
    if (!names.isEmpty() && r.nextInt(4) == 0) {
      y.append("saturationDetector: {pluginRef: ").append(names.get(r.nextInt(names.size()))).append("}\n");
    }
    if (flowControl) {
      y.append("flowControl:\n  maxBytes: ").append(VALUES.get(r.nextInt(VALUES.size())))
          .append("\n  maxRequests: ").append(VALUES.get(r.nextInt(VALUES.size())))
          .append("\n  defaultRequestTTL: ").append(VALUES.get(r.nextInt(VALUES.size())))
          .append("\n  priorityBands:\n  - priority: ").append(r.nextInt(20) - 10)
          .append("\n    fairnessPolicyRef: ").append(r.nextBoolean() ? "round-robin-fairness-policy" : "nope")
          .append('\n');
    }
    return y.toString();
  }
}
