package dev.modelplane.router.load;

import dev.modelplane.router.plugin.Plugin;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;

/**
 * How this package's plugins find the producers llm-d's parameters name ({@code inFlightLoadProducerName},
 * {@code prefixMatchInfoProducerName}). llm-d fails to start when a consumer names a producer that is not there; so
 * does the router, with a message saying what to declare.
 */
final class Producers {
  private Producers() {
  }

  /** The {@code inflight-load-producer} named by {@code field} (by default the one named after its type). */
  static InFlightLoadProducer inFlightLoad(PluginHandle handle, PluginParameters p, String field) {
    String name = p.text(field, InFlightLoadProducer.TYPE);
    Plugin plugin = handle.plugin(name);
    if (plugin instanceof InFlightLoadProducer producer) {
      return producer;
    }
    if (plugin == null) {
      throw new IllegalArgumentException("needs an " + InFlightLoadProducer.TYPE + " named '" + name
          + "' for in-flight tokens; declare one (- type: " + InFlightLoadProducer.TYPE
          + (name.equals(InFlightLoadProducer.TYPE) ? "" : ", name: " + name) + ")");
    }
    throw new IllegalArgumentException(field + " '" + name + "' is a " + plugin.type() + ", not an "
        + InFlightLoadProducer.TYPE);
  }

  /**
   * Checks that the plugin {@code field} names, when set, is declared. Prefix matches themselves are read from the
   * candidates, where whichever prefix producer runs leaves them.
   */
  static void requireDeclared(PluginHandle handle, PluginParameters p, String field) {
    String name = p.text(field, null);
    if (name != null && handle.plugin(name) == null) {
      throw new IllegalArgumentException(field + " '" + name + "' is not a declared plugin");
    }
  }
}
