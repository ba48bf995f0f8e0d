package dev.modelplane.router.config;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.modelplane.router.config.EndpointPickerConfig.PluginSpec;
import dev.modelplane.router.config.EndpointPickerConfig.ProfilePlugin;
import dev.modelplane.router.config.EndpointPickerConfig.SchedulingProfileSpec;
import dev.modelplane.router.flowcontrol.FlowControlConfig;
import dev.modelplane.router.flowcontrol.UtilizationDetector;
import dev.modelplane.router.metrics.EngineMapping;
import dev.modelplane.router.metrics.MetricsExtractor;
import dev.modelplane.router.prefix.ApproxPrefixCacheProducer;
import dev.modelplane.router.prefix.PrefixCacheScorer;
import dev.modelplane.router.scheduling.Filter;
import dev.modelplane.router.scheduling.Picker;
import dev.modelplane.router.scheduling.Plugin;
import dev.modelplane.router.scheduling.PreRequestPlugin;
import dev.modelplane.router.scheduling.PrepareDataPlugin;
import dev.modelplane.router.scheduling.ProfileHandler;
import dev.modelplane.router.scheduling.Scheduler;
import dev.modelplane.router.scheduling.SchedulerObserver;
import dev.modelplane.router.scheduling.SchedulerProfile;
import dev.modelplane.router.scheduling.Scorer;
import dev.modelplane.router.scheduling.WeightedScorer;
import dev.modelplane.router.scheduling.plugins.MaxScorePicker;
import dev.modelplane.router.scheduling.plugins.SingleProfileHandler;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Loads an {@link EndpointPickerConfig} the way GIE's loader does: plugin names default to their type; with no
 * profiles, one {@code default} profile gets every filter, scorer and picker; with one profile and no handler, a
 * {@code single-profile-handler} is added; a profile without a picker gets the first declared picker, else a
 * {@code max-score-picker}; scorer weights default to 1; a {@code prefix-cache-scorer} without its producer gets an
 * {@code approx-prefix-cache-producer}; the saturation detector defaults to {@code utilization-detector}.
 */
public final class ConfigLoader {
  /** GIE's default configuration since v1.2: queue 2, kv-cache 2, prefix-cache 3, max-score picker. */
  public static final String DEFAULT_CONFIG = """
      apiVersion: inference.networking.x-k8s.io/v1alpha1
      kind: EndpointPickerConfig
      plugins:
      - type: queue-scorer
      - type: kv-cache-utilization-scorer
      - type: prefix-cache-scorer
      - type: metrics-data-source
      - type: core-metrics-extractor
      schedulingProfiles:
      - name: default
        plugins:
        - pluginRef: queue-scorer
          weight: 2
        - pluginRef: kv-cache-utilization-scorer
          weight: 2
        - pluginRef: prefix-cache-scorer
          weight: 3
      dataLayer:
        sources:
        - pluginRef: metrics-data-source
          extractors:
          - pluginRef: core-metrics-extractor
      """;
  public static final Set<String> API_VERSIONS = Set.of("inference.networking.x-k8s.io/v1alpha1", "llm-d.ai/v1alpha1");
  public static final String FLOW_CONTROL_GATE = "flowControl";
  public static final Set<String> FEATURE_GATES = Set.of("dataLayer", "enableLegacyMetrics", FLOW_CONTROL_GATE);

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);

  private final PluginRegistry registry;
  private final PluginEnvironment environment;
  private final SchedulerObserver observer;

  public ConfigLoader(PluginRegistry registry, PluginEnvironment environment, SchedulerObserver observer) {
    this.registry = registry;
    this.environment = environment;
    this.observer = observer;
  }

  /** Parses YAML text into the config records. */
  public static EndpointPickerConfig parse(String yaml) {
    try {
      EndpointPickerConfig config = YAML.readValue(yaml, EndpointPickerConfig.class);
      if (config == null) {
        throw new IllegalArgumentException("empty EndpointPickerConfig");
      }
      return config;
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException("invalid EndpointPickerConfig: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new IllegalArgumentException("invalid EndpointPickerConfig: " + e.getMessage(), e);
    }
  }

  public SchedulingSetup load(String yaml) {
    return load(parse(yaml));
  }

  public SchedulingSetup load(EndpointPickerConfig raw) {
    validateHeader(raw);
    List<PluginSpec> specs = new ArrayList<>();
    for (PluginSpec s : raw.plugins()) {
      if (s.type() == null || s.type().isEmpty()) {
        throw new IllegalArgumentException("plugin '" + s.name() + "' has no type");
      }
      specs.add(new PluginSpec(s.name() == null || s.name().isEmpty() ? s.type() : s.name(), s.type(), s.parameters()));
    }
    validateProfiles(raw, specs);
    Instantiator inst = new Instantiator(specs);
    inst.instantiateAll();
    List<SchedulingProfileSpec> profileSpecs = new ArrayList<>(raw.schedulingProfiles());
    if (profileSpecs.isEmpty()) {
      List<ProfilePlugin> refs = new ArrayList<>();
      inst.plugins.forEach((name, p) -> {
        if (p instanceof Filter || p instanceof Scorer || p instanceof Picker) {
          refs.add(new ProfilePlugin(name, null));
        }
      });
      profileSpecs.add(new SchedulingProfileSpec("default", refs));
    }
    ProfileHandler handler = profileHandler(inst, profileSpecs);
    Picker defaultPicker = inst.plugins.values().stream().filter(Picker.class::isInstance).map(Picker.class::cast)
        .findFirst().orElseGet(() -> (Picker) inst.add(new PluginSpec(MaxScorePicker.TYPE, MaxScorePicker.TYPE, null)));
    boolean usesPrefixScorer = false;
    Map<String, SchedulerProfile> profiles = new LinkedHashMap<>();
    List<SchedulingProfileSpec> resolvedSpecs = new ArrayList<>();
    for (SchedulingProfileSpec ps : profileSpecs) {
      List<Filter> filters = new ArrayList<>();
      List<WeightedScorer> scorers = new ArrayList<>();
      List<ProfilePlugin> resolved = new ArrayList<>();
      Picker picker = null;
      for (ProfilePlugin ref : ps.plugins()) {
        Plugin p = inst.plugins.get(ref.pluginRef());
        Double weight = ref.weight();
        if (p instanceof Scorer scorer) {
          weight = weight == null ? 1.0 : weight;
          scorers.add(new WeightedScorer(scorer, weight));
          usesPrefixScorer |= scorer instanceof PrefixCacheScorer;
        }
        if (p instanceof Filter filter) {
          filters.add(filter);
        }
        if (p instanceof Picker pk) {
          if (picker != null) {
            throw new IllegalArgumentException("failed to set '" + pk.name() + "' as picker, already have a "
                + "registered picker plugin '" + picker.name() + "'");
          }
          picker = pk;
        }
        resolved.add(new ProfilePlugin(ref.pluginRef(), weight));
      }
      if (picker == null) {
        picker = defaultPicker;
        resolved.add(new ProfilePlugin(picker.name(), null));
      }
      profiles.put(ps.name(), new SchedulerProfile(ps.name(), filters, scorers, picker));
      resolvedSpecs.add(new SchedulingProfileSpec(ps.name(), resolved));
    }
    ApproxPrefixCacheProducer producer = inst.plugins.values().stream()
        .filter(ApproxPrefixCacheProducer.class::isInstance).map(ApproxPrefixCacheProducer.class::cast)
        .findFirst().orElse(null);
    if (producer == null && usesPrefixScorer) {
      producer = (ApproxPrefixCacheProducer) inst.add(
          new PluginSpec(ApproxPrefixCacheProducer.TYPE, ApproxPrefixCacheProducer.TYPE, prefixScorerParameters(specs)));
    }
    UtilizationDetector detector = saturationDetector(raw, inst);
    MetricsExtractor extractor = metricsExtractor(inst);
    FlowControlConfig flowControl = raw.featureGates().contains(FLOW_CONTROL_GATE) ? flowControl(raw) : null;

    List<PrepareDataPlugin> prepare = new ArrayList<>();
    List<PreRequestPlugin> preRequest = new ArrayList<>();
    for (Plugin p : inst.plugins.values()) {
      if (p instanceof PrepareDataPlugin pd) {
        prepare.add(pd);
      }
      if (p instanceof PreRequestPlugin pr) {
        preRequest.add(pr);
      }
    }
    EndpointPickerConfig effective = new EndpointPickerConfig(raw.apiVersion(), raw.kind(), raw.featureGates(),
        inst.effectiveSpecs(), resolvedSpecs,
        new EndpointPickerConfig.PluginRef(detector.name()), raw.dataLayer(), raw.flowControl(), raw.parser());
    return new SchedulingSetup(effective, Map.copyOf(inst.plugins), new Scheduler(handler, profiles, observer),
        List.copyOf(prepare), List.copyOf(preRequest), detector, extractor, flowControl, producer);
  }

  /** In GIE ≤ v1.0 the prefix parameters sat on the scorer; carry them over to an implied producer. */
  private static JsonNode prefixScorerParameters(List<PluginSpec> specs) {
    for (PluginSpec s : specs) {
      if (PrefixCacheScorer.TYPE.equals(s.type()) && s.parameters() != null && !s.parameters().isEmpty()) {
        return s.parameters();
      }
    }
    return null;
  }

  private static void validateHeader(EndpointPickerConfig raw) {
    if (raw.apiVersion() != null && !API_VERSIONS.contains(raw.apiVersion())) {
      throw new IllegalArgumentException("unsupported apiVersion '" + raw.apiVersion() + "' (supported: "
          + String.join(", ", API_VERSIONS) + ")");
    }
    if (raw.kind() != null && !"EndpointPickerConfig".equals(raw.kind())) {
      throw new IllegalArgumentException("unsupported kind '" + raw.kind() + "', expected EndpointPickerConfig");
    }
    for (String gate : raw.featureGates()) {
      if (!FEATURE_GATES.contains(gate)) {
        throw new IllegalArgumentException(
            "feature gate validation failed: feature gate '" + gate + "' is unknown or unregistered");
      }
    }
  }

  private static void validateProfiles(EndpointPickerConfig raw, List<PluginSpec> specs) {
    Set<String> defined = new HashSet<>();
    for (PluginSpec s : specs) {
      if (!defined.add(s.name())) {
        throw new IllegalArgumentException("plugin name '" + s.name() + "' is declared twice");
      }
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < raw.schedulingProfiles().size(); i++) {
      SchedulingProfileSpec p = raw.schedulingProfiles().get(i);
      if (p.name() == null || p.name().isEmpty()) {
        throw new IllegalArgumentException("scheduling profile validation failed: schedulingProfiles[" + i
            + "] is missing a name");
      }
      if (!seen.add(p.name())) {
        throw new IllegalArgumentException("scheduling profile validation failed: schedulingProfiles[" + i
            + "] has duplicate name '" + p.name() + "'");
      }
      for (int j = 0; j < p.plugins().size(); j++) {
        String ref = p.plugins().get(j).pluginRef();
        if (ref == null || ref.isEmpty()) {
          throw new IllegalArgumentException("scheduling profile validation failed: schedulingProfiles[" + p.name()
              + "].plugins[" + j + "] is missing a 'pluginRef'");
        }
        if (!defined.contains(ref)) {
          throw new IllegalArgumentException("scheduling profile validation failed: schedulingProfiles[" + p.name()
              + "] references undefined plugin '" + ref + "'");
        }
      }
    }
    if (raw.saturationDetector() != null) {
      String ref = raw.saturationDetector().pluginRef();
      if (ref == null || ref.isEmpty()) {
        throw new IllegalArgumentException(
            "saturation detector validation failed: saturation detector plugin reference is empty");
      }
      if (!defined.contains(ref)) {
        throw new IllegalArgumentException(
            "saturation detector validation failed: saturation detector references undefined plugin '" + ref + "'");
      }
    }
  }

  private ProfileHandler profileHandler(Instantiator inst, List<SchedulingProfileSpec> profiles) {
    List<ProfileHandler> handlers = inst.plugins.values().stream().filter(ProfileHandler.class::isInstance)
        .map(ProfileHandler.class::cast).toList();
    if (handlers.size() > 1) {
      throw new IllegalArgumentException("only one profile handler may be declared, found " + handlers.size());
    }
    if (handlers.size() == 1) {
      return handlers.get(0);
    }
    if (profiles.size() != 1) {
      throw new IllegalArgumentException(
          "a profile handler is required when there are " + profiles.size() + " scheduling profiles");
    }
    return (ProfileHandler) inst.add(new PluginSpec(SingleProfileHandler.TYPE, SingleProfileHandler.TYPE, null));
  }

  private static UtilizationDetector saturationDetector(EndpointPickerConfig raw, Instantiator inst) {
    String ref = raw.saturationDetector() == null ? null : raw.saturationDetector().pluginRef();
    if (ref != null) {
      Plugin p = inst.plugins.get(ref);
      if (p instanceof UtilizationDetector d) {
        return d;
      }
      throw new IllegalArgumentException("saturation detector '" + ref + "' is of type " + p.type()
          + "; supported: " + UtilizationDetector.TYPE);
    }
    Plugin existing = inst.plugins.get(UtilizationDetector.TYPE);
    if (existing instanceof UtilizationDetector d) {
      return d;
    }
    return (UtilizationDetector) inst.add(new PluginSpec(UtilizationDetector.TYPE, UtilizationDetector.TYPE, null));
  }

  private static MetricsExtractor metricsExtractor(Instantiator inst) {
    for (Plugin p : inst.plugins.values()) {
      if (p instanceof ConfigOnlyPlugin c && c.type().equals(PluginRegistry.CORE_METRICS_EXTRACTOR)
          && c.parameters() != null) {
        JsonNode params = c.parameters();
        List<EngineMapping> engines = new ArrayList<>();
        JsonNode configs = params.get("engineConfigs");
        if (configs != null) {
          for (JsonNode e : configs) {
            String name = PluginRegistry.textParam(e, "name", "");
            if (name.isEmpty()) {
              throw new IllegalArgumentException("engine config name cannot be empty");
            }
            engines.add(EngineMapping.of(name, PluginRegistry.textParam(e, "queuedRequestsSpec", null),
                PluginRegistry.textParam(e, "runningRequestsSpec", null),
                PluginRegistry.textParam(e, "kvUsageSpec", null), PluginRegistry.textParam(e, "loraSpec", null),
                PluginRegistry.textParam(e, "cacheInfoSpec", null),
                PluginRegistry.textParam(e, "cacheBlockSizeLabelName", null),
                PluginRegistry.textParam(e, "cacheNumBlocksLabelName", null),
                PluginRegistry.textParam(e, "cacheBlockSizeSpec", null),
                PluginRegistry.textParam(e, "cacheNumBlocksSpec", null)));
          }
        }
        return new MetricsExtractor(engines, PluginRegistry.textParam(params, "defaultEngine", null),
            PluginRegistry.textParam(params, "engineLabelKey", null));
      }
    }
    return MetricsExtractor.defaults();
  }

  private static FlowControlConfig flowControl(EndpointPickerConfig raw) {
    EndpointPickerConfig.FlowControl fc = raw.flowControl();
    if (fc == null) {
      return FlowControlConfig.DEFAULT;
    }
    FlowControlConfig.BandConfig defaultBand = fc.defaultPriorityBand() == null
        ? FlowControlConfig.DEFAULT.defaultBand() : band(fc.defaultPriorityBand());
    List<FlowControlConfig.BandConfig> bands = new ArrayList<>();
    if (fc.priorityBands() != null) {
      Set<Integer> seen = new HashSet<>();
      for (EndpointPickerConfig.PriorityBand b : fc.priorityBands()) {
        if (!seen.add(b.priority())) {
          throw new IllegalArgumentException("flowControl.priorityBands: duplicate priority " + b.priority());
        }
        bands.add(band(b));
      }
    }
    return new FlowControlConfig(Quantities.quantity(fc.maxBytes()), Quantities.quantity(fc.maxRequests()),
        Quantities.duration(fc.defaultRequestTTL(), "flowControl.defaultRequestTTL"), defaultBand, bands);
  }

  private static FlowControlConfig.BandConfig band(EndpointPickerConfig.PriorityBand b) {
    return new FlowControlConfig.BandConfig(b.priority(), Quantities.quantity(b.maxBytes()),
        Quantities.quantity(b.maxRequests()), b.fairnessPolicyRef(), b.orderingPolicyRef());
  }

  /** Instantiates plugins in declaration order, or earlier when another plugin's factory asks for one. */
  private final class Instantiator implements PluginHandle {
    final Map<String, PluginSpec> specs = new LinkedHashMap<>();
    final Map<String, Plugin> plugins = new LinkedHashMap<>();
    final List<PluginSpec> added = new ArrayList<>();
    final Set<String> inProgress = new HashSet<>();

    Instantiator(List<PluginSpec> specs) {
      specs.forEach(s -> this.specs.put(s.name(), s));
    }

    void instantiateAll() {
      for (String name : specs.keySet()) {
        plugin(name);
      }
      // Keep declaration order in the map even when a later plugin was built first.
      Map<String, Plugin> ordered = new LinkedHashMap<>();
      specs.keySet().forEach(n -> ordered.put(n, plugins.get(n)));
      plugins.clear();
      plugins.putAll(ordered);
    }

    Plugin add(PluginSpec spec) {
      Plugin p = create(spec);
      plugins.put(spec.name(), p);
      added.add(spec);
      return p;
    }

    List<PluginSpec> effectiveSpecs() {
      List<PluginSpec> all = new ArrayList<>(specs.values());
      all.addAll(added);
      return all;
    }

    @Override
    public Plugin plugin(String name) {
      Plugin p = plugins.get(name);
      if (p != null) {
        return p;
      }
      PluginSpec spec = specs.get(name);
      if (spec == null) {
        return null;
      }
      if (!inProgress.add(name)) {
        throw new IllegalArgumentException("plugin '" + name + "' depends on itself");
      }
      p = create(spec);
      plugins.put(name, p);
      inProgress.remove(name);
      return p;
    }

    private Plugin create(PluginSpec spec) {
      PluginFactory factory = registry.factory(spec.type());
      if (factory == null) {
        throw new IllegalArgumentException("plugin type '" + spec.type() + "' not found in registry (plugin '"
            + spec.name() + "')");
      }
      try {
        return factory.create(spec.name(), spec.parameters(), this);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("plugin '" + spec.name() + "' (" + spec.type() + "): " + e.getMessage(), e);
      }
    }

    @Override
    public PluginEnvironment environment() {
      return environment;
    }
  }
}
