package dev.modelplane.router.scheduling.plugins;

import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.Plugin;

/** Decides whether a request, already placed on a decode endpoint, should also run a separate stage (prefill). */
public interface PdDecider extends Plugin {
  boolean disaggregate(InferenceRequest request, Candidate decodeTarget);
}
