package dev.modelplane.router.scheduling;

import dev.modelplane.router.plugin.Plugin;
import java.util.Map;

/**
 * Decides which scheduling profiles run, round after round, and how their results combine. The scheduler calls
 * {@link #pick} until it returns no profile, then {@link #processResults}.
 */
public interface ProfileHandler extends Plugin {
  /**
   * The profiles to run next given the results so far (a failed profile maps to {@code null}); empty to stop.
   */
  Map<String, SchedulerProfile> pick(CycleState state, InferenceRequest request, Map<String, SchedulerProfile> profiles,
      Map<String, ProfileRunResult> results);

  /** Combines the profile results and names the primary profile. */
  SchedulingResult processResults(CycleState state, InferenceRequest request, Map<String, ProfileRunResult> results)
      throws SchedulingException;
}
