package dev.modelplane.router.scheduling;

/** Runs after a successful scheduling decision, before the request is sent (GIE's PreRequest extension point). */
public interface PreRequestPlugin extends Plugin {
  void preRequest(InferenceRequest request, SchedulingResult result);
}
