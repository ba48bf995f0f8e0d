package dev.modelplane.router.scheduling.plugins;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.InferenceRequest;

/** {@code always-disagg-pd-decider}: always runs the prefill stage. */
public final class AlwaysDisaggPdDecider extends NamedPlugin implements PdDecider {
  public static final String TYPE = "always-disagg-pd-decider";

  /** Factory (no parameters). */
  public static AlwaysDisaggPdDecider create(String name, PluginParameters parameters, PluginHandle handle) {
    return new AlwaysDisaggPdDecider(name);
  }

  public AlwaysDisaggPdDecider(String name) {
    super(TYPE, name);
  }

  @Override
  public boolean disaggregate(InferenceRequest request, Candidate decodeTarget) {
    return true;
  }
}
