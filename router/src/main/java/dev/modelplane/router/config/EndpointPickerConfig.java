package dev.modelplane.router.config;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * GIE's {@code EndpointPickerConfig} ({@code inference.networking.x-k8s.io/v1alpha1}; llm-d's {@code llm-d.ai/v1alpha1}
 * is accepted too), field for field.
 *
 * @param apiVersion API version
 * @param kind must be {@code EndpointPickerConfig}
 * @param featureGates gates turned on ({@code name}) or set ({@code name=true|false}): {@code flowControl} (on by
 *     default), {@code dataLayer}, {@code enableLegacyMetrics}, {@code prepareDataPlugins}
 * @param plugins plugin instances
 * @param schedulingProfiles profiles referencing plugins by name
 * @param saturationDetector the detector plugin reference
 * @param dataLayer metrics sources and extractors ({@code data} is accepted as an alias)
 * @param flowControl queue limits and bands
 * @param parser the request parser reference
 */
public record EndpointPickerConfig(
    String apiVersion,
    String kind,
    List<String> featureGates,
    List<PluginSpec> plugins,
    List<SchedulingProfileSpec> schedulingProfiles,
    PluginRef saturationDetector,
    @JsonAlias("data") DataLayer dataLayer,
    FlowControl flowControl,
    PluginRef parser) {

  public EndpointPickerConfig {
    featureGates = featureGates == null ? List.of() : List.copyOf(featureGates);
    plugins = plugins == null ? List.of() : List.copyOf(plugins);
    schedulingProfiles = schedulingProfiles == null ? List.of() : List.copyOf(schedulingProfiles);
  }

  /** A plugin instance: {@code name} defaults to {@code type}. */
  public record PluginSpec(String name, String type, JsonNode parameters) {
  }

  /** A profile and the plugins it runs. */
  public record SchedulingProfileSpec(String name, List<ProfilePlugin> plugins) {
    public SchedulingProfileSpec {
      plugins = plugins == null ? List.of() : List.copyOf(plugins);
    }
  }

  /** A plugin used by a profile; {@code weight} applies to scorers (default 1). */
  public record ProfilePlugin(String pluginRef, Double weight) {
  }

  /** A reference to a plugin by name. */
  public record PluginRef(String pluginRef) {
  }

  /** Data-layer sources. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record DataLayer(List<Source> sources) {
    /** A source and its extractors. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Source(String pluginRef, List<PluginRef> extractors) {
    }
  }

  /**
   * Flow-control limits; quantities may be numbers or Kubernetes quantity strings, durations Go duration strings.
   */
  public record FlowControl(JsonNode maxBytes, JsonNode maxRequests, String defaultRequestTTL,
      PriorityBand defaultPriorityBand, List<PriorityBand> priorityBands, String usageLimitPolicyPluginRef) {
  }

  /** One priority band. */
  public record PriorityBand(int priority, JsonNode maxBytes, JsonNode maxRequests, String fairnessPolicyRef,
      String orderingPolicyRef) {
  }
}
