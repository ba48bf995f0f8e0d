package dev.modelplane.router.scheduling;

import dev.modelplane.router.pool.EndpointState;

/**
 * Told once per request when its response is over — finished, failed or abandoned by the client — with the endpoint
 * that served it, {@code null} when none did (GIE's ResponseComplete point).
 */
public interface ResponseCompletePlugin extends dev.modelplane.router.plugin.Plugin {
  void responseComplete(InferenceRequest request, EndpointState servedBy, ResponseOutcome outcome);
}
