package dev.modelplane.planner.workload;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Generated requests: an arrival process, prompt and output lengths, shared prefixes and a mix of priorities, LoRA
 * adapters and tenants. Deterministic per {@code seed}: every {@link #requests()} starts the same random streams, one
 * for each aspect, so a workload {@link #atRate at another rate} has the same requests at scaled times (for Poisson
 * and gamma arrivals).
 *
 * @param arrival when requests arrive
 * @param durationSeconds arrivals stop at this simulated time, or null for no limit
 * @param maxRequests at most this many requests, or null for no limit (one of the two limits is needed)
 * @param prompt prompt lengths, the prefix included
 * @param output output lengths
 * @param prefix shared prefixes, or null for none
 * @param mix priorities, adapters, tenants
 * @param seed the random seed
 */
public record SyntheticWorkload(ArrivalProcess arrival, Double durationSeconds, Long maxRequests,
    LengthDistribution prompt, LengthDistribution output, PrefixGroups prefix, RequestMix mix, long seed)
    implements Workload {

  public SyntheticWorkload {
    if (durationSeconds == null && maxRequests == null) {
      throw new IllegalArgumentException("a workload needs a duration or a number of requests");
    }
    if (durationSeconds != null && (!(durationSeconds > 0) || durationSeconds.isInfinite())) {
      throw new IllegalArgumentException("the duration must be > 0 seconds, got " + durationSeconds);
    }
    if (maxRequests != null && maxRequests < 1) {
      throw new IllegalArgumentException("the number of requests must be at least 1, got " + maxRequests);
    }
  }

  @Override
  public Iterator<PlannedRequest> requests() {
    return new Generator();
  }

  @Override
  public String describe() {
    List<String> parts = new ArrayList<>();
    String limit = durationSeconds == null ? maxRequests + " requests"
        : LengthDistribution.number(durationSeconds) + " s" + (maxRequests == null ? "" : " or " + maxRequests
            + " requests");
    parts.add(arrival + " for " + limit);
    parts.add("prompt " + prompt);
    parts.add("output " + output);
    if (prefix != null && prefix.share() > 0) {
      parts.add(prefix.toString());
    }
    String who = mix.describe();
    if (!who.isEmpty()) {
      parts.add(who);
    }
    return String.join(", ", parts);
  }

  @Override
  public double rate() {
    return arrival.rate();
  }

  @Override
  public Workload atRate(double requestsPerSecond) {
    return new SyntheticWorkload(arrival.withRate(requestsPerSecond), durationSeconds, maxRequests, prompt, output,
        prefix, mix, seed);
  }

  @Override
  public Set<String> adapters() {
    return mix.loraShare() > 0 ? Set.copyOf(mix.adapters()) : Set.of();
  }

  /** One pass over the workload, drawing as it goes. */
  private final class Generator implements Iterator<PlannedRequest> {
    private final SplittableRandom arrivals;
    private final SplittableRandom lengths;
    private final SplittableRandom prefixes;
    private final SplittableRandom who;
    private final PrefixGroups.Sampler groups;
    private long id;
    private double seconds;
    private PlannedRequest next;

    Generator() {
      SplittableRandom root = new SplittableRandom(seed);
      arrivals = root.split();
      lengths = root.split();
      prefixes = root.split();
      who = root.split();
      groups = prefix == null ? null : prefix.sampler(root.split());
      next = draw();
    }

    @Override
    public boolean hasNext() {
      return next != null;
    }

    @Override
    public PlannedRequest next() {
      if (next == null) {
        throw new NoSuchElementException();
      }
      PlannedRequest current = next;
      next = draw();
      return current;
    }

    private PlannedRequest draw() {
      if (maxRequests != null && id >= maxRequests) {
        return null;
      }
      seconds += arrival.nextGapSeconds(arrivals);
      if (durationSeconds != null && seconds >= durationSeconds) {
        return null;
      }
      int promptTokens = prompt.sample(lengths);
      int outputTokens = output.sample(lengths);
      int group = groups == null ? -1 : groups.group(prefixes);
      int prefixTokens = groups == null ? 0 : groups.prefixTokens(group, promptTokens);
      PlannedRequest request = new PlannedRequest(id, Math.round(seconds * 1e9), promptTokens, outputTokens,
          prefixTokens == 0 ? -1 : group, prefixTokens, mix.priority(who), mix.adapter(who), mix.tenant(who));
      id++;
      return request;
    }
  }
}
