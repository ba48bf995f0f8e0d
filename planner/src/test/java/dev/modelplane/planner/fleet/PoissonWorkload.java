package dev.modelplane.planner.fleet;

import dev.modelplane.planner.workload.PlannedRequest;
import dev.modelplane.planner.workload.Workload;
import java.util.Iterator;
import java.util.Set;
import java.util.SplittableRandom;

/** A small workload for these tests: Poisson arrivals, fixed lengths, optional prefix groups and adapters. */
record PoissonWorkload(double rate, int count, int promptTokens, int outputTokens, int groups, int prefixTokens,
    Set<String> adapters, long seed) implements Workload {

  static PoissonWorkload of(double rate, int count, int prompt, int output) {
    return new PoissonWorkload(rate, count, prompt, output, 0, 0, Set.of(), 7);
  }

  PoissonWorkload withPrefixes(int g, int tokens) {
    return new PoissonWorkload(rate, count, promptTokens, outputTokens, g, tokens, adapters, seed);
  }

  PoissonWorkload withAdapters(Set<String> names) {
    return new PoissonWorkload(rate, count, promptTokens, outputTokens, groups, prefixTokens, names, seed);
  }

  @Override
  public Iterator<PlannedRequest> requests() {
    SplittableRandom r = new SplittableRandom(seed);
    String[] names = adapters.stream().sorted().toArray(String[]::new);
    return new Iterator<>() {
      long i;
      double t;

      @Override
      public boolean hasNext() {
        return i < count;
      }

      @Override
      public PlannedRequest next() {
        t += -Math.log(1 - r.nextDouble()) / rate;
        int g = groups > 0 ? r.nextInt(groups) : -1;
        String adapter = names.length > 0 && r.nextDouble() < 0.5 ? names[r.nextInt(names.length)] : null;
        return new PlannedRequest(i++, (long) (t * 1e9), promptTokens, outputTokens, g, g < 0 ? 0 : prefixTokens, 0,
            adapter, null);
      }
    };
  }

  @Override
  public String describe() {
    return "Poisson " + rate + " req/s";
  }

  @Override
  public Workload atRate(double requestsPerSecond) {
    return new PoissonWorkload(requestsPerSecond, count, promptTokens, outputTokens, groups, prefixTokens, adapters,
        seed);
  }
}
