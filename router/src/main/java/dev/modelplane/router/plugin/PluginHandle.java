package dev.modelplane.router.plugin;



/** What a plugin factory can reach: other plugins by name and the shared environment. */
public interface PluginHandle {
  /** The plugin named {@code name}, instantiating it first if it is declared later; {@code null} if undeclared. */
  Plugin plugin(String name);

  PluginEnvironment environment();
}
