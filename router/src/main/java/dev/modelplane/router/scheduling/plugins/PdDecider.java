package dev.modelplane.router.scheduling.plugins;

import dev.modelplane.router.plugin.Plugin;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.InferenceRequest;

/** Decides whether a request, already placed on a decode endpoint, should also run a separate stage (prefill). */
public interface PdDecider extends Plugin {
  boolean disaggregate(InferenceRequest request, Candidate decodeTarget);
}
