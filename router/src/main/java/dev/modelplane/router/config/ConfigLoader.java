package dev.modelplane.router.config;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.modelplane.common.picker.PickerConfigs;
import dev.modelplane.router.config.EndpointPickerConfig.PluginSpec;
import dev.modelplane.router.config.EndpointPickerConfig.ProfilePlugin;
import dev.modelplane.router.config.EndpointPickerConfig.SchedulingProfileSpec;
import dev.modelplane.router.datalayer.CoreMetricsExtractor;
import dev.modelplane.router.datalayer.MetricsExtractor;
import dev.modelplane.router.flowcontrol.FlowControlConfig;
import dev.modelplane.router.flowcontrol.ConcurrencyDetector;
import dev.modelplane.router.flowcontrol.SaturationDetector;
import dev.modelplane.router.flowcontrol.UsageLimitPolicies;
import dev.modelplane.router.flowcontrol.UsageLimitPolicy;
import dev.modelplane.router.flowcontrol.UtilizationDetector;
import dev.modelplane.router.plugin.Plugin;
import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.router.prefix.ApproxPrefixCacheProducer;
import dev.modelplane.router.prefix.PrefixCacheScorer;
import dev.modelplane.router.prefix.precise.PrecisePrefixCacheProducer;
import dev.modelplane.router.prefix.precise.PrecisePrefixCacheScorer;
import dev.modelplane.router.scheduling.Filter;
import dev.modelplane.router.scheduling.LifecyclePlugins;
import dev.modelplane.router.scheduling.Picker;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Loads an {@link EndpointPickerConfig} the way GIE's loader does: plugin names default to their type; with no
 * profiles, one {@code default} profile gets every filter, scorer and picker; with one profile and no handler, a
 * {@code single-profile-handler} is added; a profile without a picker gets the first declared picker, else a
 * {@code max-score-picker}; scorer weights default to 1; a {@code prefix-cache-scorer} without its producer gets an
 * {@code approx-prefix-cache-producer}, and so does a {@code precise-prefix-cache-scorer}, which falls back on it
 * while no server's events are indexed; the saturation detector defaults to {@code utilization-detector}.
 */
public final class ConfigLoader {
  /**
   * GIE's default configuration since v1.2 (queue 2, kv-cache 2, prefix-cache 3, max-score picker) plus lora-affinity
   * 2 (the file {@link PickerConfigs#ROUTER_DEFAULT}; docs/router.md says why).
   */
  public static final String DEFAULT_CONFIG = PickerConfigs.ROUTER_DEFAULT.yaml();
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
    ConfigValidator.validateHeader(raw);
    List<PluginSpec> specs = new ArrayList<>();
    for (PluginSpec s : raw.plugins()) {
      if (s.type() == null || s.type().isEmpty()) {
        throw new IllegalArgumentException("plugin '" + s.name() + "' has no type");
      }
      specs.add(new PluginSpec(s.name() == null || s.name().isEmpty() ? s.type() : s.name(), s.type(), s.parameters()));
    }
    ConfigValidator.validateReferences(raw, specs);
    PluginInstantiator inst = new PluginInstantiator(registry, environment, specs);
    inst.instantiateAll();
    List<SchedulingProfileSpec> profileSpecs = new ArrayList<>(raw.schedulingProfiles());
    if (profileSpecs.isEmpty()) {
      List<ProfilePlugin> refs = new ArrayList<>();
      inst.plugins().forEach((name, p) -> {
        if (p instanceof Filter || p instanceof Scorer || p instanceof Picker) {
          refs.add(new ProfilePlugin(name, null));
        }
      });
      profileSpecs.add(new SchedulingProfileSpec("default", refs));
    }
    ProfileHandler handler = profileHandler(inst, profileSpecs);
    Picker defaultPicker = inst.first(Picker.class);
    if (defaultPicker == null) {
      defaultPicker = (Picker) inst.add(new PluginSpec(MaxScorePicker.TYPE, MaxScorePicker.TYPE, null));
    }
    Map<String, SchedulerProfile> profiles = new LinkedHashMap<>();
    List<SchedulingProfileSpec> resolvedSpecs = new ArrayList<>();
    for (SchedulingProfileSpec ps : profileSpecs) {
      ResolvedProfile rp = resolveProfile(inst, ps, defaultPicker);
      profiles.put(ps.name(), rp.profile());
      resolvedSpecs.add(rp.spec());
    }
    checkPrefixMatchProducers(inst);
    ApproxPrefixCacheProducer producer = inst.first(ApproxPrefixCacheProducer.class);
    // The approximate index is the precise one's fallback too.
    boolean usesPrefixScorer = inst.first(PrecisePrefixCacheProducer.class) != null
        || profiles.values().stream().flatMap(p -> p.scorers().stream())
        .anyMatch(w -> w.scorer() instanceof PrefixCacheScorer || w.scorer() instanceof PrecisePrefixCacheScorer);
    if (producer == null && usesPrefixScorer) {
      producer = (ApproxPrefixCacheProducer) inst.add(new PluginSpec(ApproxPrefixCacheProducer.TYPE,
          ApproxPrefixCacheProducer.TYPE, prefixScorerParameters(specs)));
    }
    SaturationDetector detector = saturationDetector(raw, inst);
    CoreMetricsExtractor extractor = inst.first(CoreMetricsExtractor.class);
    FlowControlConfig flowControl = FeatureGates.parse(raw.featureGates()).enabled(FeatureGates.FLOW_CONTROL)
        ? FlowControlSection.read(raw.flowControl()) : null;
    EndpointPickerConfig effective = new EndpointPickerConfig(raw.apiVersion(), raw.kind(), raw.featureGates(),
        inst.effectiveSpecs(), resolvedSpecs,
        new EndpointPickerConfig.PluginRef(detector.name()), raw.dataLayer(), raw.flowControl(), raw.parser());
    return new SchedulingSetup(effective, Map.copyOf(inst.plugins()), new Scheduler(handler, profiles, observer),
        LifecyclePlugins.of(inst.plugins().values()), detector,
        extractor == null ? MetricsExtractor.defaults() : extractor.extractor(), flowControl,
        usageLimitPolicy(raw, inst), producer);
  }

  /** Each {@code prefixMatchInfoProducerName} names a declared approximate or precise prefix-match producer. */
  private static void checkPrefixMatchProducers(PluginInstantiator inst) {
    inst.plugins().forEach((name, p) -> {
      if (p instanceof PrefixCacheScorer scorer && scorer.producerName() != null) {
        Plugin named = inst.plugins().get(scorer.producerName());
        if (!(named instanceof ApproxPrefixCacheProducer || named instanceof PrecisePrefixCacheProducer)) {
          throw new IllegalArgumentException("plugin '" + name + "': prefixMatchInfoProducerName '"
              + scorer.producerName() + "' " + (named == null ? "names no plugin" : "names a " + named.type())
              + "; it must name a declared " + ApproxPrefixCacheProducer.TYPE + " or "
              + PrecisePrefixCacheProducer.TYPE);
        }
      }
    });
  }

  private record ResolvedProfile(SchedulerProfile profile, SchedulingProfileSpec spec) {
  }

  /** A profile's filters, weighted scorers (weight 1 by default) and picker (the default picker when it has none). */
  private static ResolvedProfile resolveProfile(PluginInstantiator inst, SchedulingProfileSpec ps,
      Picker defaultPicker) {
    List<Filter> filters = new ArrayList<>();
    List<WeightedScorer> scorers = new ArrayList<>();
    List<ProfilePlugin> resolved = new ArrayList<>();
    Picker picker = null;
    for (ProfilePlugin ref : ps.plugins()) {
      Plugin p = inst.plugins().get(ref.pluginRef());
      Double weight = ref.weight();
      if (p instanceof Scorer scorer) {
        weight = weight == null ? 1.0 : weight;
        scorers.add(new WeightedScorer(scorer, weight));
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
    return new ResolvedProfile(new SchedulerProfile(ps.name(), filters, scorers, picker),
        new SchedulingProfileSpec(ps.name(), resolved));
  }

  /** In GIE <= v1.0 the prefix parameters sat on the scorer; carry them over to an implied producer. */
  private static JsonNode prefixScorerParameters(List<PluginSpec> specs) {
    for (PluginSpec s : specs) {
      if (PrefixCacheScorer.TYPE.equals(s.type()) && s.parameters() != null && !s.parameters().isEmpty()) {
        return s.parameters();
      }
    }
    return null;
  }

  private static ProfileHandler profileHandler(PluginInstantiator inst, List<SchedulingProfileSpec> profiles) {
    List<ProfileHandler> handlers = inst.plugins().values().stream().filter(ProfileHandler.class::isInstance)
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

  private static SaturationDetector saturationDetector(EndpointPickerConfig raw, PluginInstantiator inst) {
    String ref = raw.saturationDetector() == null ? null : raw.saturationDetector().pluginRef();
    if (ref != null) {
      Plugin p = inst.plugins().get(ref);
      if (p instanceof SaturationDetector d) {
        return d;
      }
      throw new IllegalArgumentException("saturation detector '" + ref + "' is of type " + p.type()
          + "; supported: " + UtilizationDetector.TYPE + ", " + ConcurrencyDetector.TYPE);
    }
    if (inst.plugins().get(UtilizationDetector.TYPE) instanceof UtilizationDetector d) {
      return d;
    }
    return (UtilizationDetector) inst.add(new PluginSpec(UtilizationDetector.TYPE, UtilizationDetector.TYPE, null));
  }

  /**
   * The policy {@code flowControl.usageLimitPolicyPluginRef} names; without one, a plugin named
   * {@code static-usage-limit-policy} if declared (as GIE injects its default under that name), else no gating.
   */
  private static UsageLimitPolicy usageLimitPolicy(EndpointPickerConfig raw, PluginInstantiator inst) {
    String ref = raw.flowControl() == null ? null : raw.flowControl().usageLimitPolicyPluginRef();
    if (ref == null || ref.isEmpty()) {
      return inst.plugins().get(UsageLimitPolicies.STATIC) instanceof UsageLimitPolicy p ? p : UsageLimitPolicy.NONE;
    }
    Plugin p = inst.plugins().get(ref);
    if (p instanceof UsageLimitPolicy policy) {
      return policy;
    }
    throw new IllegalArgumentException("flowControl.usageLimitPolicyPluginRef '" + ref + "' is of type " + p.type()
        + "; supported: " + UsageLimitPolicies.STATIC + ", " + UsageLimitPolicies.PRIORITY_HOLDBACK + ", "
        + UsageLimitPolicies.SOFT_REFLECTIVE);
  }
}
