package dev.modelplane.router.scheduling;

import dev.modelplane.router.plugin.Plugin;
import java.util.List;

/** Narrows the candidates of a scheduling profile. Returning an empty list fails the profile. */
public interface Filter extends Plugin {
  List<Candidate> filter(CycleState state, InferenceRequest request, List<Candidate> candidates);
}
