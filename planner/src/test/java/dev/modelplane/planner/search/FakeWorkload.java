package dev.modelplane.planner.search;

import dev.modelplane.planner.workload.PlannedRequest;
import dev.modelplane.planner.workload.Workload;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/** A workload that only has a rate: the fake evaluators of these tests never look at its requests. */
record FakeWorkload(double rate) implements Workload {
  @Override
  public Iterator<PlannedRequest> requests() {
    return List.<PlannedRequest>of().iterator();
  }

  @Override
  public String describe() {
    return "fake at " + rate + " req/s";
  }

  @Override
  public Workload atRate(double requestsPerSecond) {
    return new FakeWorkload(requestsPerSecond);
  }

  @Override
  public Set<String> adapters() {
    return Set.of();
  }
}
