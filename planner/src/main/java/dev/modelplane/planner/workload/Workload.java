package dev.modelplane.planner.workload;

import java.util.Iterator;

/**
 * A stream of requests in arrival order. Deterministic: the same workload yields the same requests every time
 * {@link #requests()} is called.
 */
public interface Workload {
  /** The requests, in non-decreasing arrival order. */
  Iterator<PlannedRequest> requests();

  /** One line for reports: the arrival process, the lengths, the prefix groups. */
  String describe();

  /** The offered load in requests per second (the mean arrival rate). */
  double rate();

  /** The same workload at another mean arrival rate (same lengths, prefixes and mix), for load sweeps. */
  Workload atRate(double requestsPerSecond);

  /** The LoRA adapters the workload's requests name (empty when it sends none). */
  java.util.Set<String> adapters();
}
