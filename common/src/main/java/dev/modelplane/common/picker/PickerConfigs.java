package dev.modelplane.common.picker;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The EndpointPickerConfig files modelplane writes or runs by default. Each is kept once, as a resource beside this
 * class ({@code dev/modelplane/common/picker/<file>}), so that the operator, which writes them into ConfigMaps and
 * router arguments, the router, which loads them, and the tests of both read the same bytes.
 */
public enum PickerConfigs {
  /** OtterScale's configuration for aggregated serving: GIE's default scorers (ConfigMap key default-plugins.yaml). */
  OTTERSCALE_DEFAULT("otterscale-default-plugins.yaml"),
  /** OtterScale's configuration for ModelServices with prefill pods: llm-d's prefill/decode set (pd-config.yaml). */
  OTTERSCALE_PREFILL_DECODE("otterscale-pd-config.yaml"),
  /**
   * The router's own default: GIE's default since v1.2 (queue 2, kv-cache 2, prefix-cache 3, max-score picker) plus
   * lora-affinity 2, with its metrics data source. The LoRA scorer gives every endpoint the same score unless the
   * servers report adapters, so only pools that serve adapters route differently from GIE's default.
   */
  ROUTER_DEFAULT("router-default.yaml"),
  /** What the operator gives the default router of an OME InferenceService with a decoder: prefill/decode profiles. */
  OME_PREFILL_DECODE("ome-router-pd.yaml"),
  /**
   * llm-d's recommended aggregated profile (its optimized-baseline guide): prefix-cache affinity filter, then the
   * token-load scorer, with the producers they read; for benchmarks against the router's default.
   */
  LLMD_RECOMMENDED("llm-d-recommended.yaml");

  private final String file;
  private final String yaml;

  PickerConfigs(String file) {
    this.file = file;
    this.yaml = read(file);
  }

  /** The file name, in this class's package among the resources. */
  public String file() {
    return file;
  }

  /** The file's text. */
  public String yaml() {
    return yaml;
  }

  private static String read(String file) {
    try (InputStream in = PickerConfigs.class.getResourceAsStream(file)) {
      if (in == null) {
        throw new IllegalStateException("the resource " + file + " is missing beside " + PickerConfigs.class);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the resource " + file, e);
    }
  }
}
