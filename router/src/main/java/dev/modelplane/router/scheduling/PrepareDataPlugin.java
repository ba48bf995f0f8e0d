package dev.modelplane.router.scheduling;

import dev.modelplane.router.plugin.Plugin;
import java.util.List;

/** Runs before scheduling to attach per-request data to candidates (GIE's PrepareData extension point). */
public interface PrepareDataPlugin extends Plugin {
  void prepareRequestData(InferenceRequest request, List<Candidate> candidates);
}
