package dev.modelplane.router.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.router.scheduling.plugins.NamedPlugin;

/**
 * A plugin the router implements natively and that only carries parameters (parser, metrics source and extractor,
 * flow-control policies), accepted so GIE configs load unchanged.
 */
public final class ConfigOnlyPlugin extends NamedPlugin {
  private final JsonNode parameters;

  public ConfigOnlyPlugin(String type, String name, JsonNode parameters) {
    super(type, name);
    this.parameters = parameters;
  }

  public JsonNode parameters() {
    return parameters;
  }
}
