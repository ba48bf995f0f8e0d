package dev.modelplane.cli.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.modelplane.common.picker.PickerConfigs;
import dev.modelplane.planner.fleet.RouterProfile;

/**
 * The router's EndpointPickerConfig for each profile a plan compares: the router's default; the same scorers with
 * the precise prefix index (KV-cache events from the servers) in place of the approximate one; and
 * predicted-latency scheduling as docs/router.md gives it.
 */
final class PickerProfiles {
  /** The servers' KV block size the precise index assumes (vLLM's default, the router's default). */
  static final int BLOCK_SIZE = 16;
  /** The servers' PYTHONHASHSEED, so their published block hashes equal the router's. */
  static final String HASH_SEED = "42";
  /** Where each server publishes its KV-cache events (vLLM's default port). */
  static final int EVENTS_PORT = 5557;
  private static final YAMLMapper YAML = new YAMLMapper(YAMLFactory.builder()
      .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
      .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
      .build());

  private PickerProfiles() {
  }

  /** The configuration's YAML. */
  static String yaml(RouterProfile profile) {
    return switch (profile) {
      case DEFAULT -> PickerConfigs.ROUTER_DEFAULT.yaml();
      case PRECISE -> precise();
      case PREDICTIVE -> predictive();
    };
  }

  private static String precise() {
    ObjectNode config = read(PickerConfigs.ROUTER_DEFAULT.yaml());
    for (JsonNode plugin : config.path("plugins")) {
      if ("prefix-cache-scorer".equals(plugin.path("type").asText())) {
        ObjectNode p = (ObjectNode) plugin;
        p.put("type", "precise-prefix-cache-scorer");
        ObjectNode parameters = p.putObject("parameters");
        parameters.putObject("tokenProcessorConfig").put("blockSize", BLOCK_SIZE).put("hashSeed", HASH_SEED);
        parameters.putObject("kvEventsConfig").putObject("podDiscoveryConfig").put("socketPort", EVENTS_PORT);
      }
    }
    for (JsonNode profile : config.path("schedulingProfiles")) {
      for (JsonNode ref : profile.path("plugins")) {
        if ("prefix-cache-scorer".equals(ref.path("pluginRef").asText())) {
          ((ObjectNode) ref).put("pluginRef", "precise-prefix-cache-scorer");
        }
      }
    }
    return write(config);
  }

  private static String predictive() {
    ObjectNode config = read(PickerConfigs.ROUTER_DEFAULT.yaml());
    ArrayNode plugins = config.putArray("plugins");
    plugins.addObject().put("type", "approx-prefix-cache-producer");
    plugins.addObject().put("type", "predicted-latency-scorer");
    plugins.addObject().put("type", "max-score-picker");
    plugins.addObject().put("type", "metrics-data-source");
    plugins.addObject().put("type", "core-metrics-extractor");
    ArrayNode profiles = config.putArray("schedulingProfiles");
    ObjectNode profile = profiles.addObject().put("name", "default");
    ArrayNode refs = profile.putArray("plugins");
    refs.addObject().put("pluginRef", "predicted-latency-scorer");
    refs.addObject().put("pluginRef", "max-score-picker");
    return write(config);
  }

  private static ObjectNode read(String yaml) {
    try {
      return (ObjectNode) YAML.readTree(yaml);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the bundled picker configuration does not parse", e);
    }
  }

  private static String write(JsonNode config) {
    try {
      return YAML.writeValueAsString(config);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
