package dev.modelplane.router.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.router.scheduling.Plugin;

/** Creates a plugin of one type from its name and parameters ({@code null} when absent). */
@FunctionalInterface
public interface PluginFactory {
  Plugin create(String name, JsonNode parameters, PluginHandle handle);
}
