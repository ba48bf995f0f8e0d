package dev.modelplane.router.scheduling;

import dev.modelplane.router.plugin.Plugin;
import java.util.List;

/** Runs before scheduling to attach per-request data to candidates (GIE's PrepareData extension point). */
public interface PrepareDataPlugin extends Plugin {
  void prepareRequestData(InferenceRequest request, List<Candidate> candidates);

  /**
   * Whether this plugin refines what other PrepareData plugins attach (it then runs after them, whatever the order
   * of the configuration): a precise prefix match replaces the approximate one.
   */
  default boolean refines() {
    return false;
  }
}
