package dev.modelplane.router.datalayer;


import dev.modelplane.common.metrics.PrometheusSample;
import dev.modelplane.common.metrics.PrometheusTextParser;
import dev.modelplane.router.pool.MetricsSnapshot;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * GIE's {@code core-metrics-extractor}: turns a scraped page into a {@link MetricsSnapshot} using the mapping of the
 * endpoint's engine (pod label {@code inference.networking.k8s.io/engine-type}, default {@code vllm}).
 */
public final class MetricsExtractor {
  /** Pod label naming the engine. */
  public static final String ENGINE_TYPE_LABEL = "inference.networking.k8s.io/engine-type";

  private final Map<String, EngineMapping> mappings;
  private final EngineMapping defaultMapping;
  private final String engineLabelKey;
  private final Map<EngineMapping, Set<String>> familyNames = new HashMap<>();

  public MetricsExtractor(List<EngineMapping> mappings, String defaultEngine, String engineLabelKey) {
    this.mappings = new HashMap<>();
    for (EngineMapping m : EngineMapping.defaults()) {
      this.mappings.put(m.engine(), m);
    }
    for (EngineMapping m : mappings) {
      this.mappings.put(m.engine(), m);
    }
    this.mappings.putIfAbsent("llama.cpp", this.mappings.get("llamacpp"));
    String engine = defaultEngine == null || defaultEngine.isEmpty() ? EngineMapping.DEFAULT_ENGINE : defaultEngine;
    this.defaultMapping = this.mappings.get(engine);
    if (defaultMapping == null) {
      throw new IllegalArgumentException("defaultEngine \"" + engine + "\" not found in engineConfigs");
    }
    this.engineLabelKey = engineLabelKey == null || engineLabelKey.isEmpty() ? ENGINE_TYPE_LABEL : engineLabelKey;
    for (EngineMapping m : this.mappings.values()) {
      familyNames.put(m, Set.copyOf(m.familyNames()));
    }
  }

  /** The built-in mappings with vLLM as default. */
  public static MetricsExtractor defaults() {
    return new MetricsExtractor(List.of(), EngineMapping.DEFAULT_ENGINE, ENGINE_TYPE_LABEL);
  }

  /** The mapping for an endpoint with these pod labels. */
  public EngineMapping mappingFor(Map<String, String> podLabels) {
    String engine = podLabels.get(engineLabelKey);
    if (engine == null || engine.isEmpty()) {
      return defaultMapping;
    }
    EngineMapping m = mappings.get(engine);
    return m != null ? m : defaultMapping;
  }

  /**
   * Extracts a new snapshot from a page. Signals the page lacks keep their previous values; when the page carries none
   * of them, the previous snapshot is returned unchanged (so it ages into staleness).
   */
  public MetricsSnapshot extract(CharSequence page, EngineMapping mapping, MetricsSnapshot previous, long nowNanos) {
    Map<String, List<PrometheusSample>> families = PrometheusTextParser.parse(page, familyNames.get(mapping));
    boolean updated = false;
    int waiting = previous.waitingQueueSize();
    int running = previous.runningRequests();
    double kv = previous.kvCacheUsage();
    Set<String> active = previous.activeModels();
    Set<String> waitingModels = previous.waitingModels();
    int maxLoras = previous.maxActiveModels();
    int blockSize = previous.cacheBlockSize();
    int numBlocks = previous.cacheNumBlocks();

    PrometheusSample s;
    if (mapping.queued() != null && (s = mapping.queued().latest(families)) != null) {
      waiting = (int) s.value();
      updated = true;
    }
    if (mapping.running() != null && (s = mapping.running().latest(families)) != null) {
      running = (int) s.value();
      updated = true;
    }
    if (mapping.kvUsage() != null && (s = mapping.kvUsage().latest(families)) != null) {
      kv = s.value();
      updated = true;
    }
    if (mapping.lora() != null && (s = mapping.lora().newestByValue(families)) != null) {
      active = adapters(s.labels().get("running_lora_adapters"));
      waitingModels = adapters(s.labels().get("waiting_lora_adapters"));
      maxLoras = parseInt(s.labels().get("max_lora"), maxLoras);
      updated = true;
    }
    if (mapping.cacheInfo() != null && (s = mapping.cacheInfo().latest(families)) != null) {
      blockSize = parseInt(s.labels().get(mapping.blockSizeLabel()), 0);
      numBlocks = parseInt(s.labels().get(mapping.numBlocksLabel()), numBlocks);
      updated = true;
    }
    if (mapping.cacheBlockSize() != null && (s = mapping.cacheBlockSize().latest(families)) != null) {
      blockSize = (int) s.value();
      updated = true;
    }
    if (mapping.cacheNumBlocks() != null && (s = mapping.cacheNumBlocks().latest(families)) != null) {
      numBlocks = (int) s.value();
      updated = true;
    }
    if (!updated) {
      return previous;
    }
    return new MetricsSnapshot(waiting, running, kv, active, waitingModels, maxLoras, blockSize, numBlocks, true,
        nowNanos);
  }

  private static Set<String> adapters(String csv) {
    if (csv == null || csv.isBlank()) {
      return Set.of();
    }
    Set<String> out = new LinkedHashSet<>();
    for (String name : csv.split(",")) {
      String trimmed = name.trim();
      if (!trimmed.isEmpty()) {
        out.add(trimmed);
      }
    }
    return Set.copyOf(new HashSet<>(out));
  }

  private static int parseInt(String s, int fallback) {
    if (s == null || s.isEmpty()) {
      return fallback;
    }
    try {
      return Integer.parseInt(s.trim());
    } catch (NumberFormatException e) {
      return fallback;
    }
  }
}
