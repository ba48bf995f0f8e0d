package dev.modelplane.router.datalayer;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code core-metrics-extractor}: which metric families the scraper reads per model-server engine. Parameters:
 * {@code engineConfigs} (each with a {@code name} and optional {@code *Spec} overrides), {@code defaultEngine},
 * {@code engineLabelKey}; without parameters, the built-in engine mappings.
 */
public final class CoreMetricsExtractor extends NamedPlugin {
  public static final String TYPE = "core-metrics-extractor";

  private final MetricsExtractor extractor;

  public CoreMetricsExtractor(String name, MetricsExtractor extractor) {
    super(TYPE, name);
    this.extractor = extractor;
  }

  /** Factory; see the class comment for the parameters. */
  public static CoreMetricsExtractor create(String name, PluginParameters parameters, PluginHandle handle) {
    if (parameters.isEmpty()) {
      return new CoreMetricsExtractor(name, MetricsExtractor.defaults());
    }
    List<EngineMapping> engines = new ArrayList<>();
    for (PluginParameters e : parameters.objectList("engineConfigs")) {
      String engine = e.text("name", "");
      if (engine.isEmpty()) {
        throw new IllegalArgumentException("engine config name cannot be empty");
      }
      engines.add(EngineMapping.of(engine, e.text("queuedRequestsSpec", null), e.text("runningRequestsSpec", null),
          e.text("kvUsageSpec", null), e.text("loraSpec", null), e.text("cacheInfoSpec", null),
          e.text("cacheBlockSizeLabelName", null), e.text("cacheNumBlocksLabelName", null),
          e.text("cacheBlockSizeSpec", null), e.text("cacheNumBlocksSpec", null)));
    }
    return new CoreMetricsExtractor(name, new MetricsExtractor(engines, parameters.text("defaultEngine", null),
        parameters.text("engineLabelKey", null)));
  }

  /** The extractor the scraper uses. */
  public MetricsExtractor extractor() {
    return extractor;
  }
}
