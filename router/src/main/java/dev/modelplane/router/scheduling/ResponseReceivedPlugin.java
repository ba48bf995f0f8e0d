package dev.modelplane.router.scheduling;

import dev.modelplane.router.pool.EndpointState;

/**
 * Told when the model server's response headers arrive, with the endpoint that actually served the request — which
 * may differ from the scheduler's first pick when the proxy retried or fell back (GIE's ResponseReceived point).
 */
public interface ResponseReceivedPlugin extends dev.modelplane.router.plugin.Plugin {
  void responseReceived(InferenceRequest request, SchedulingResult result, int status, EndpointState servedBy);
}
