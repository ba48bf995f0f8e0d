package dev.modelplane.router.scheduling;

import dev.modelplane.router.plugin.Plugin;

/** Runs after a successful scheduling decision, before the request is sent (GIE's PreRequest extension point). */
public interface PreRequestPlugin extends Plugin {
  void preRequest(InferenceRequest request, SchedulingResult result);
}
