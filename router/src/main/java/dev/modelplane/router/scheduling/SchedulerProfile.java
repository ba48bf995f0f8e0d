package dev.modelplane.router.scheduling;

import java.util.ArrayList;
import java.util.List;

/**
 * One scheduling profile: filters in sequence, then weighted scorers, then one picker. The weighted score of a
 * candidate is {@code Σ weight·clamp(score, 0, 1)}.
 */
public final class SchedulerProfile {
  private final String name;
  private final List<Filter> filters;
  private final List<WeightedScorer> scorers;
  private final Picker picker;

  public SchedulerProfile(String name, List<Filter> filters, List<WeightedScorer> scorers, Picker picker) {
    if (picker == null) {
      throw new IllegalArgumentException("scheduling profile " + name + " has no picker");
    }
    this.name = name;
    this.filters = List.copyOf(filters);
    this.scorers = List.copyOf(scorers);
    this.picker = picker;
  }

  public String name() {
    return name;
  }

  public List<Filter> filters() {
    return filters;
  }

  public List<WeightedScorer> scorers() {
    return scorers;
  }

  public Picker picker() {
    return picker;
  }

  /** Runs the profile; {@code null} when the filters left no candidate (the profile failed). */
  public ProfileRunResult run(CycleState state, InferenceRequest request, List<Candidate> candidates,
      SchedulerObserver observer) {
    List<Candidate> remaining = candidates;
    for (Filter filter : filters) {
      long start = System.nanoTime();
      int before = remaining.size();
      remaining = filter.filter(state, request, remaining);
      observer.pluginDuration("Filter", filter, System.nanoTime() - start);
      observer.filtered(filter, before, remaining.size());
      if (remaining.isEmpty()) {
        return null;
      }
    }
    int n = remaining.size();
    double[] total = new double[n];
    double[] scores = new double[n];
    // A traced request keeps each scorer's score on its candidates (the router's schedule span reports them).
    boolean keepScores = request.attribute("trace.keepScores") != null;
    for (WeightedScorer ws : scorers) {
      java.util.Arrays.fill(scores, 0);
      long start = System.nanoTime();
      ws.scorer().score(state, request, remaining, scores);
      observer.pluginDuration("Scorer", ws.scorer(), System.nanoTime() - start);
      double weight = ws.weight();
      for (int i = 0; i < n; i++) {
        total[i] += clamp(scores[i]) * weight;
      }
      if (keepScores) {
        for (int i = 0; i < n; i++) {
          remaining.get(i).attribute("trace.score." + ws.scorer().name(), clamp(scores[i]));
        }
      }
    }
    List<ScoredCandidate> scored = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      scored.add(new ScoredCandidate(remaining.get(i), total[i]));
    }
    long start = System.nanoTime();
    ProfileRunResult result = picker.pick(state, scored);
    observer.pluginDuration("Picker", picker, System.nanoTime() - start);
    return result;
  }

  private static double clamp(double score) {
    if (score < 0 || Double.isNaN(score)) {
      return 0;
    }
    return Math.min(score, 1);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("{Filters: [");
    filters.forEach(f -> sb.append(f.type()).append('/').append(f.name()).append(' '));
    sb.append("], Scorers: [");
    scorers.forEach(s -> sb.append(s.scorer().type()).append('/').append(s.scorer().name()).append(": ")
        .append(s.weight()).append(' '));
    return sb.append("], Picker: ").append(picker.type()).append('/').append(picker.name()).append('}').toString();
  }
}
