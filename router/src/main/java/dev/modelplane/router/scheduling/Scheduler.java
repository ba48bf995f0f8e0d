package dev.modelplane.router.scheduling;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the profile handler loop: ask the handler which profiles to run, run them, repeat until it answers with none,
 * then let it combine the results. Stateless between requests and safe to call from many threads.
 */
public final class Scheduler {
  private final ProfileHandler profileHandler;
  private final Map<String, SchedulerProfile> profiles;
  private final SchedulerObserver observer;

  public Scheduler(ProfileHandler profileHandler, Map<String, SchedulerProfile> profiles, SchedulerObserver observer) {
    this.profileHandler = profileHandler;
    this.profiles = Collections.unmodifiableMap(new LinkedHashMap<>(profiles));
    this.observer = observer == null ? SchedulerObserver.NONE : observer;
  }

  public Map<String, SchedulerProfile> profiles() {
    return profiles;
  }

  public ProfileHandler profileHandler() {
    return profileHandler;
  }

  /** Schedules one request over the given candidates. */
  public SchedulingResult schedule(InferenceRequest request, List<Candidate> candidates) throws SchedulingException {
    long start = System.nanoTime();
    boolean ok = false;
    try {
      SchedulingResult result = runCycle(request, candidates);
      ok = true;
      return result;
    } finally {
      observer.cycle(System.nanoTime() - start, ok);
    }
  }

  /** {@link #schedule} for tests and benchmarks, rethrowing the checked exception unchecked. */
  public SchedulingResult scheduleUnchecked(InferenceRequest request, List<Candidate> candidates) {
    try {
      return schedule(request, candidates);
    } catch (SchedulingException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  private SchedulingResult runCycle(InferenceRequest request, List<Candidate> candidates) throws SchedulingException {
    CycleState state = new CycleState();
    Map<String, ProfileRunResult> results = new HashMap<>();
    // Each round must run at least one new profile, so the loop ends after at most |profiles|+1 rounds even with a
    // misbehaving handler.
    for (int round = 0; round <= profiles.size(); round++) {
      long t = System.nanoTime();
      Map<String, SchedulerProfile> next = profileHandler.pick(state, request, profiles, results);
      observer.pluginDuration("ProfilePicker", profileHandler, System.nanoTime() - t);
      if (next.isEmpty()) {
        break;
      }
      boolean ranNew = false;
      for (Map.Entry<String, SchedulerProfile> e : next.entrySet()) {
        if (results.containsKey(e.getKey())) {
          continue;
        }
        results.put(e.getKey(), e.getValue().run(state, request, candidates, observer));
        ranNew = true;
      }
      if (!ranNew) {
        break;
      }
    }
    if (results.isEmpty()) {
      throw new SchedulingException("failed to run any scheduler profile for request " + request.requestId());
    }
    long t = System.nanoTime();
    SchedulingResult result = profileHandler.processResults(state, request, results);
    observer.pluginDuration("ProcessProfilesResults", profileHandler, System.nanoTime() - t);
    if (result == null || result.primary() == null || result.primary().targets().isEmpty()) {
      throw new SchedulingException("no endpoints available for the given request");
    }
    return result;
  }
}
