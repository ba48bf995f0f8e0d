package dev.modelplane.router.config;

import dev.modelplane.router.config.EndpointPickerConfig.PluginSpec;
import dev.modelplane.router.plugin.Plugin;
import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.router.plugin.PluginFactory;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Instantiates plugins in declaration order, or earlier when another plugin's factory asks for one. */
final class PluginInstantiator implements PluginHandle {
  private final PluginRegistry registry;
  private final PluginEnvironment environment;
  private final Map<String, PluginSpec> specs = new LinkedHashMap<>();
  private final Map<String, Plugin> plugins = new LinkedHashMap<>();
  private final List<PluginSpec> added = new ArrayList<>();
  private final Set<String> inProgress = new HashSet<>();

  PluginInstantiator(PluginRegistry registry, PluginEnvironment environment, List<PluginSpec> specs) {
    this.registry = registry;
    this.environment = environment;
    specs.forEach(s -> this.specs.put(s.name(), s));
  }

  /** Builds every declared plugin; the map keeps declaration order even when a later plugin was built first. */
  void instantiateAll() {
    for (String name : specs.keySet()) {
      plugin(name);
    }
    Map<String, Plugin> ordered = new LinkedHashMap<>();
    specs.keySet().forEach(n -> ordered.put(n, plugins.get(n)));
    plugins.clear();
    plugins.putAll(ordered);
  }

  /** Every plugin instance by name: declared ones first, then the ones the loader added. */
  Map<String, Plugin> plugins() {
    return plugins;
  }

  /** Adds a plugin the config implies but does not declare. */
  Plugin add(PluginSpec spec) {
    Plugin p = create(spec);
    plugins.put(spec.name(), p);
    added.add(spec);
    return p;
  }

  /** The first plugin of a kind, or {@code null}. */
  <T> T first(Class<T> kind) {
    return plugins.values().stream().filter(kind::isInstance).map(kind::cast).findFirst().orElse(null);
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

  @Override
  public PluginEnvironment environment() {
    return environment;
  }

  private Plugin create(PluginSpec spec) {
    PluginFactory factory = registry.factory(spec.type());
    if (factory == null) {
      throw new IllegalArgumentException("plugin type '" + spec.type() + "' not found in registry (plugin '"
          + spec.name() + "')");
    }
    try {
      return factory.create(spec.name(), PluginParameters.of(spec.parameters()), this);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("plugin '" + spec.name() + "' (" + spec.type() + "): " + e.getMessage(), e);
    }
  }
}
