package dev.modelplane.router.config;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The feature gates of an EndpointPickerConfig. An entry is a bare name, which turns the gate on (GIE's form), or
 * {@code name=true} / {@code name=false} (llm-d's form). Each gate has a default: {@code flowControl} is on unless
 * turned off, unlike GIE and llm-d where it is off, so that InferenceObjective priorities queue without a gate; the
 * others are off.
 */
final class FeatureGates {
  static final String FLOW_CONTROL = "flowControl";
  /** Every gate this router knows, with its default. {@code prepareDataPlugins} (llm-d) changes nothing here. */
  static final Map<String, Boolean> DEFAULTS = Map.of(FLOW_CONTROL, true, "dataLayer", false,
      "enableLegacyMetrics", false, "prepareDataPlugins", false);

  private final Map<String, Boolean> enabled;

  private FeatureGates(Map<String, Boolean> enabled) {
    this.enabled = enabled;
  }

  /**
   * Reads the {@code featureGates} entries over the defaults.
   *
   * @throws IllegalArgumentException for an unknown gate or a value other than {@code true} or {@code false}
   */
  static FeatureGates parse(List<String> entries) {
    Map<String, Boolean> gates = new TreeMap<>(DEFAULTS);
    for (String entry : entries) {
      String raw = entry == null ? "" : entry.strip();
      int eq = raw.indexOf('=');
      String name = eq < 0 ? raw : raw.substring(0, eq).strip();
      if (!DEFAULTS.containsKey(name)) {
        throw new IllegalArgumentException(
            "feature gate validation failed: feature gate '" + name + "' is unknown or unregistered");
      }
      String value = eq < 0 ? "true" : raw.substring(eq + 1).strip().toLowerCase(Locale.ROOT);
      if (!value.equals("true") && !value.equals("false")) {
        throw new IllegalArgumentException("feature gate validation failed: feature gate '" + name
            + "' has value '" + raw.substring(eq + 1).strip() + "', expected true or false");
      }
      gates.put(name, Boolean.parseBoolean(value));
    }
    return new FeatureGates(gates);
  }

  boolean enabled(String gate) {
    return enabled.getOrDefault(gate, false);
  }
}
