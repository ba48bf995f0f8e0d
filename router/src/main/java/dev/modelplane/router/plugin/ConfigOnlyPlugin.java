package dev.modelplane.router.plugin;

/**
 * A plugin the router implements natively and that only carries parameters (parser, metrics source, flow-control
 * policies), accepted so GIE configs load unchanged.
 */
public final class ConfigOnlyPlugin extends NamedPlugin {
  private final PluginParameters parameters;

  public ConfigOnlyPlugin(String type, String name, PluginParameters parameters) {
    super(type, name);
    this.parameters = parameters;
  }

  /** A factory for a parameters-only type. */
  public static PluginFactory factory(String type) {
    return (name, parameters, handle) -> new ConfigOnlyPlugin(type, name, parameters);
  }

  public PluginParameters parameters() {
    return parameters;
  }
}
