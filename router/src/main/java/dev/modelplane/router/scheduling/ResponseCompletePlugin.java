package dev.modelplane.router.scheduling;

import dev.modelplane.router.pool.EndpointState;

/** Told when a response has finished (or the client went away), with the endpoint that served it. */
public interface ResponseCompletePlugin extends Plugin {
  void responseComplete(InferenceRequest request, EndpointState servedBy);
}
