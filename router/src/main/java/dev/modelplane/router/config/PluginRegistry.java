package dev.modelplane.router.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.router.flowcontrol.UtilizationDetector;
import dev.modelplane.router.prefix.ApproxPrefixCacheProducer;
import dev.modelplane.router.prefix.PrefixCacheConfig;
import dev.modelplane.router.prefix.PrefixCacheScorer;
import dev.modelplane.router.prefix.PrefixIndex;
import dev.modelplane.router.scheduling.Plugin;
import dev.modelplane.router.scheduling.plugins.AlwaysDisaggPdDecider;
import dev.modelplane.router.scheduling.plugins.DisaggProfileHandler;
import dev.modelplane.router.scheduling.plugins.KvCacheUtilizationScorer;
import dev.modelplane.router.scheduling.plugins.LabelFilter;
import dev.modelplane.router.scheduling.plugins.LoraAffinityScorer;
import dev.modelplane.router.scheduling.plugins.MaxScorePicker;
import dev.modelplane.router.scheduling.plugins.PdDecider;
import dev.modelplane.router.scheduling.plugins.PrefixBasedPdDecider;
import dev.modelplane.router.scheduling.plugins.QueueScorer;
import dev.modelplane.router.scheduling.plugins.RandomPicker;
import dev.modelplane.router.scheduling.plugins.SingleProfileHandler;
import dev.modelplane.router.scheduling.plugins.WeightedRandomPicker;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Plugin types the router knows, by GIE/llm-d type name. */
public final class PluginRegistry {
  public static final String OPENAI_PARSER = "openai-parser";
  public static final String METRICS_DATA_SOURCE = "metrics-data-source";
  public static final String CORE_METRICS_EXTRACTOR = "core-metrics-extractor";
  public static final String STATIC_USAGE_LIMIT = "static-usage-limit-policy";

  private final Map<String, PluginFactory> factories = new LinkedHashMap<>();

  /** Every built-in type. */
  public static PluginRegistry builtIn() {
    PluginRegistry r = new PluginRegistry();
    r.register(QueueScorer.TYPE, (n, p, h) -> QueueScorer.waiting(n));
    r.register(QueueScorer.RUNNING_REQUESTS_TYPE, (n, p, h) -> QueueScorer.running(n));
    r.register(KvCacheUtilizationScorer.TYPE, (n, p, h) -> new KvCacheUtilizationScorer(n));
    r.register(LoraAffinityScorer.TYPE, (n, p, h) -> new LoraAffinityScorer(n));
    r.register(PrefixCacheScorer.TYPE, (n, p, h) -> new PrefixCacheScorer(n));
    r.register(MaxScorePicker.TYPE,
        (n, p, h) -> new MaxScorePicker(n, intParam(p, "maxNumOfEndpoints", 1), h.environment().random()));
    r.register(RandomPicker.TYPE,
        (n, p, h) -> new RandomPicker(n, intParam(p, "maxNumOfEndpoints", 1), h.environment().random()));
    r.register(WeightedRandomPicker.TYPE,
        (n, p, h) -> new WeightedRandomPicker(n, intParam(p, "maxNumOfEndpoints", 1), h.environment().random()));
    r.register(LabelFilter.DECODE_TYPE, (n, p, h) -> LabelFilter.decode(n));
    r.register(LabelFilter.PREFILL_TYPE, (n, p, h) -> LabelFilter.prefill(n));
    r.register(LabelFilter.ENCODE_TYPE, (n, p, h) -> LabelFilter.encode(n));
    r.register(LabelFilter.BY_LABEL_TYPE, PluginRegistry::byLabel);
    r.register(SingleProfileHandler.TYPE, (n, p, h) -> new SingleProfileHandler(n));
    r.register(DisaggProfileHandler.TYPE, (n, p, h) -> disagg(DisaggProfileHandler.TYPE, n, p, h));
    r.register(DisaggProfileHandler.PD_TYPE, (n, p, h) -> disagg(DisaggProfileHandler.PD_TYPE, n, p, h));
    r.register(PrefixBasedPdDecider.TYPE,
        (n, p, h) -> new PrefixBasedPdDecider(n, intParam(p, "nonCachedTokens", 0)));
    r.register(AlwaysDisaggPdDecider.TYPE, (n, p, h) -> new AlwaysDisaggPdDecider(n));
    r.register(ApproxPrefixCacheProducer.TYPE, PluginRegistry::approxPrefix);
    r.register(UtilizationDetector.TYPE, PluginRegistry::utilizationDetector);
    for (String type : new String[] {OPENAI_PARSER, METRICS_DATA_SOURCE, CORE_METRICS_EXTRACTOR,
        dev.modelplane.router.flowcontrol.FlowControlConfig.FCFS,
        dev.modelplane.router.flowcontrol.FlowControlConfig.GLOBAL_STRICT,
        dev.modelplane.router.flowcontrol.FlowControlConfig.ROUND_ROBIN, STATIC_USAGE_LIMIT}) {
      r.register(type, (n, p, h) -> new ConfigOnlyPlugin(type, n, p));
    }
    return r;
  }

  public void register(String type, PluginFactory factory) {
    factories.put(type, factory);
  }

  public PluginFactory factory(String type) {
    return factories.get(type);
  }

  public Set<String> types() {
    return factories.keySet();
  }

  static int intParam(JsonNode params, String field, int fallback) {
    JsonNode v = params == null ? null : params.get(field);
    return v == null || v.isNull() ? fallback : v.asInt(fallback);
  }

  static double doubleParam(JsonNode params, String field, double fallback) {
    JsonNode v = params == null ? null : params.get(field);
    return v == null || v.isNull() ? fallback : v.asDouble(fallback);
  }

  static boolean boolParam(JsonNode params, String field, boolean fallback) {
    JsonNode v = params == null ? null : params.get(field);
    return v == null || v.isNull() ? fallback : v.asBoolean(fallback);
  }

  static String textParam(JsonNode params, String field, String fallback) {
    JsonNode v = params == null ? null : params.get(field);
    return v == null || v.isNull() || v.asText().isEmpty() ? fallback : v.asText();
  }

  private static Plugin byLabel(String name, JsonNode p, PluginHandle h) {
    String label = textParam(p, "label", "");
    boolean allowsNoLabel = boolParam(p, "allowsNoLabel", false);
    Set<String> values = new HashSet<>();
    if (p != null && p.get("validValues") != null) {
      p.get("validValues").forEach(v -> values.add(v.asText()));
    }
    if (label.isEmpty()) {
      throw new IllegalArgumentException("invalid configuration for 'by-label' filter: 'label' must be specified");
    }
    if (values.isEmpty() && !allowsNoLabel) {
      throw new IllegalArgumentException("invalid configuration for 'by-label' filter: either 'validValues' must be "
          + "non-empty or 'allowsNoLabel' must be true");
    }
    return new LabelFilter(LabelFilter.BY_LABEL_TYPE, name, label, allowsNoLabel, values);
  }

  private static Plugin disagg(String type, String name, JsonNode p, PluginHandle h) {
    JsonNode profiles = p == null ? null : p.get("profiles");
    JsonNode deciders = p == null ? null : p.get("deciders");
    // Flat (deprecated) parameters of pd-profile-handler and early disagg-profile-handler.
    String decode = textParam(profiles, "decode", textParam(p, "decodeProfile", "decode"));
    String prefill = textParam(profiles, "prefill", textParam(p, "prefillProfile", "prefill"));
    String encode = textParam(profiles, "encode", textParam(p, "encodeProfile", "encode"));
    String legacyDecider = textParam(p, "prefillDeciderPluginName", textParam(p, "deciderPluginName",
        type.equals(DisaggProfileHandler.PD_TYPE) ? PrefixBasedPdDecider.TYPE : ""));
    String prefillDecider = textParam(deciders, "prefill", legacyDecider);
    String encodeDecider = textParam(deciders, "encode", textParam(p, "encodeDeciderPluginName", ""));
    return new DisaggProfileHandler(type, name, decode, prefill, encode, decider(h, prefillDecider, "prefill"),
        decider(h, encodeDecider, "encode"), h.environment().disaggDecisions());
  }

  private static PdDecider decider(PluginHandle h, String name, String stage) {
    if (name.isEmpty()) {
      return null;
    }
    Plugin plugin = h.plugin(name);
    if (plugin == null) {
      throw new IllegalArgumentException("deciders." + stage + " plugin not found: " + name);
    }
    if (!(plugin instanceof PdDecider decider)) {
      throw new IllegalArgumentException("plugin " + name + " does not implement a " + stage + " decider");
    }
    return decider;
  }

  static PrefixCacheConfig prefixConfig(JsonNode p) {
    PrefixCacheConfig d = PrefixCacheConfig.DEFAULT;
    int blockSizeTokens = intParam(p, "blockSizeTokens", d.blockSizeTokens());
    if (intParam(p, "blockSize", 0) > 0 && (p.get("blockSizeTokens") == null || blockSizeTokens <= 0)) {
      throw new IllegalArgumentException("invalid configuration: BlockSize (" + intParam(p, "blockSize", 0)
          + ") is deprecated; please use BlockSizeTokens instead to define the cache block size in tokens");
    }
    return new PrefixCacheConfig(boolParam(p, "autoTune", d.autoTune()), blockSizeTokens,
        intParam(p, "maxPrefixBlocksToMatch", d.maxPrefixBlocksToMatch()),
        intParam(p, "maxPrefixTokensToMatch", d.maxPrefixTokensToMatch()),
        intParam(p, "lruCapacityPerServer", d.lruCapacityPerServer()));
  }

  private static Plugin approxPrefix(String name, JsonNode p, PluginHandle h) {
    PrefixCacheConfig config = prefixConfig(p);
    return new ApproxPrefixCacheProducer(name, config, new PrefixIndex(config.lruCapacityPerServer()),
        h.environment().background(), h.environment().prefixObserver());
  }

  private static Plugin utilizationDetector(String name, JsonNode p, PluginHandle h) {
    UtilizationDetector.Config d = UtilizationDetector.Config.DEFAULT;
    String staleness = textParam(p, "metricsStalenessThreshold", null);
    UtilizationDetector.Config config = new UtilizationDetector.Config(
        intParam(p, "queueDepthThreshold", d.queueDepthThreshold()),
        doubleParam(p, "kvCacheUtilThreshold", d.kvCacheUtilThreshold()),
        staleness == null ? d.metricsStalenessThreshold()
            : Quantities.duration(staleness, "plugin '" + name + "' metricsStalenessThreshold"),
        doubleParam(p, "headroom", d.headroom()));
    return new UtilizationDetector(name, config, h.environment().nanoClock());
  }
}
