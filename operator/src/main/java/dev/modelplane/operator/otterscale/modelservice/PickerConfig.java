package dev.modelplane.operator.otterscale.modelservice;

import dev.modelplane.common.picker.PickerConfigs;
import dev.modelplane.operator.common.Names;
import java.util.Map;
import java.util.TreeMap;

/**
 * The endpoint picker's configuration file, one of two as OtterScale writes them: GIE's default scorers for
 * aggregated serving, or llm-d's prefill/decode set when the ModelService has prefill pods (the files are
 * {@link PickerConfigs}' resources, which the router's tests load too), or the ModelService's own. Its hash goes on
 * the picker's pod template, so switching modes rolls the picker.
 *
 * @param fileName the ConfigMap key, also the file under {@code /config}
 * @param yaml the file
 */
public record PickerConfig(String fileName, String yaml) {
  static final String DEFAULT_FILE = "default-plugins.yaml";
  static final String PD_FILE = "pd-config.yaml";
  /** The key of a configuration the ModelService brings in its annotation, which replaces both. */
  static final String CUSTOM_FILE = "endpoint-picker-config.yaml";
  static final String HASH_ANNOTATION = "checksum/config";

  /** The configuration for aggregated ({@code prefillDecode} false) or disaggregated serving. */
  static PickerConfig of(boolean prefillDecode) {
    return prefillDecode ? new PickerConfig(PD_FILE, PickerConfigs.OTTERSCALE_PREFILL_DECODE.yaml())
        : new PickerConfig(DEFAULT_FILE, PickerConfigs.OTTERSCALE_DEFAULT.yaml());
  }

  /** The ModelService's own configuration (its {@code modelplane.dev/endpoint-picker-config} annotation). */
  static PickerConfig custom(String yaml) {
    return new PickerConfig(CUSTOM_FILE, yaml);
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
