package dev.modelplane.operator.otterscale.modelservice;

import dev.modelplane.operator.common.Names;
import java.util.Map;
import java.util.TreeMap;

/**
 * The endpoint picker's configuration file, one of two as OtterScale writes them: GIE's default scorers for
 * aggregated serving, or llm-d's prefill/decode set when the ModelService has prefill pods. Its hash goes on the
 * picker's pod template, so switching modes rolls the picker.
 *
 * @param fileName the ConfigMap key, also the file under {@code /config}
 * @param yaml the file
 */
public record PickerConfig(String fileName, String yaml) {
  static final String DEFAULT_FILE = "default-plugins.yaml";
  static final String PD_FILE = "pd-config.yaml";
  static final String HASH_ANNOTATION = "checksum/config";

  private static final String DEFAULT_YAML = """
      apiVersion: inference.networking.x-k8s.io/v1alpha1
      kind: EndpointPickerConfig
      plugins:
      - type: queue-scorer
      - type: kv-cache-utilization-scorer
      - type: prefix-cache-scorer
      schedulingProfiles:
      - name: default
        plugins:
        - pluginRef: queue-scorer
          weight: 2
        - pluginRef: kv-cache-utilization-scorer
          weight: 2
        - pluginRef: prefix-cache-scorer
          weight: 3
      """;

  private static final String PD_YAML = """
      apiVersion: inference.networking.x-k8s.io/v1alpha1
      kind: EndpointPickerConfig
      featureGates:
      - prepareDataPlugins
      plugins:
      - type: prefill-header-handler
      - type: prefix-cache-scorer
        parameters:
          maxPrefixBlocksToMatch: 256
          lruCapacityPerServer: 31250
      - type: queue-scorer
      - type: prefill-filter
      - type: decode-filter
      - type: max-score-picker
      - type: prefix-based-pd-decider
        parameters:
          nonCachedTokens: 16
      - type: pd-profile-handler
        parameters:
          primaryPort: 0
          deciderPluginName: prefix-based-pd-decider
      schedulingProfiles:
      - name: prefill
        plugins:
        - pluginRef: prefill-filter
        - pluginRef: max-score-picker
        - pluginRef: prefix-cache-scorer
          weight: 2
        - pluginRef: queue-scorer
          weight: 1
      - name: decode
        plugins:
        - pluginRef: decode-filter
        - pluginRef: max-score-picker
        - pluginRef: prefix-cache-scorer
          weight: 2
        - pluginRef: queue-scorer
          weight: 1
      """;

  /** The configuration for aggregated ({@code prefillDecode} false) or disaggregated serving. */
  static PickerConfig of(boolean prefillDecode) {
    return prefillDecode ? new PickerConfig(PD_FILE, PD_YAML) : new PickerConfig(DEFAULT_FILE, DEFAULT_YAML);
  }

  Map<String, String> data() {
    return Map.of(fileName, yaml);
  }

  /** SHA-256 (lower-case hex) of every key followed by its value, keys sorted: OtterScale's hash, value for value. */
  String hash() {
    StringBuilder b = new StringBuilder();
    new TreeMap<>(data()).forEach((k, v) -> b.append(k).append(v));
    return Names.sha256Hex(b.toString());
  }
}
