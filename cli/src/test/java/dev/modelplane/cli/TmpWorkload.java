package dev.modelplane.cli;

import dev.modelplane.planner.workload.PlannedRequest;
import dev.modelplane.planner.workload.Workload;
import java.util.Iterator;
import java.util.Set;
import java.util.SplittableRandom;

record TmpWorkload(double rate, int count, int prompt, int output, int groups, int prefix, long seed)
    implements Workload {
  @Override
  public Iterator<PlannedRequest> requests() {
    SplittableRandom r = new SplittableRandom(seed);
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
        int g = r.nextInt(groups);
        return new PlannedRequest(i++, (long) (t * 1e9), prompt, output, g, prefix, 0, null, null);
      }
    };
  }

  @Override
  public String describe() {
    return "tmp";
  }

  @Override
  public Workload atRate(double r) {
    return this;
  }

  @Override
  public Set<String> adapters() {
    return Set.of();
  }
}
