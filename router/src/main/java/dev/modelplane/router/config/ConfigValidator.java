package dev.modelplane.router.config;

import dev.modelplane.router.config.EndpointPickerConfig.PluginSpec;
import dev.modelplane.router.config.EndpointPickerConfig.SchedulingProfileSpec;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Checks an EndpointPickerConfig's header and references before any plugin is built, with GIE's messages. */
final class ConfigValidator {
  static final Set<String> API_VERSIONS = Set.of("inference.networking.x-k8s.io/v1alpha1", "llm-d.ai/v1alpha1");

  private ConfigValidator() {
  }

  /** apiVersion, kind and feature gates. */
  static void validateHeader(EndpointPickerConfig raw) {
    if (raw.apiVersion() != null && !API_VERSIONS.contains(raw.apiVersion())) {
      throw new IllegalArgumentException("unsupported apiVersion '" + raw.apiVersion() + "' (supported: "
          + String.join(", ", API_VERSIONS) + ")");
    }
    if (raw.kind() != null && !"EndpointPickerConfig".equals(raw.kind())) {
      throw new IllegalArgumentException("unsupported kind '" + raw.kind() + "', expected EndpointPickerConfig");
    }
    FeatureGates.parse(raw.featureGates());
  }

  /** Unique plugin and profile names; every reference names a declared plugin. */
  static void validateReferences(EndpointPickerConfig raw, List<PluginSpec> specs) {
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
    String usageLimits = raw.flowControl() == null ? null : raw.flowControl().usageLimitPolicyPluginRef();
    if (usageLimits != null && !usageLimits.isEmpty() && !defined.contains(usageLimits)) {
      throw new IllegalArgumentException(
          "flow control validation failed: usageLimitPolicyPluginRef references undefined plugin '" + usageLimits + "'");
    }
  }
}
