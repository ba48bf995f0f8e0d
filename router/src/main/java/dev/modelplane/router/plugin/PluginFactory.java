package dev.modelplane.router.plugin;

/**
 * Creates a plugin of one type from its instance name and parameters. Each plugin type keeps its factory beside its
 * implementation (a static {@code create} method) and parses its own parameters there.
 */
@FunctionalInterface
public interface PluginFactory {
  Plugin create(String name, PluginParameters parameters, PluginHandle handle);
}
