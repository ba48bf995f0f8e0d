package dev.modelplane.router.scheduling;

import dev.modelplane.router.plugin.Plugin;
import java.util.List;

/** Chooses the target endpoints of a profile from the scored candidates (which it may reorder). */
public interface Picker extends Plugin {
  ProfileRunResult pick(CycleState state, List<ScoredCandidate> scored);
}
