package dev.modelplane.planner.search;

import dev.modelplane.planner.fleet.FleetResult;
import dev.modelplane.planner.workload.Workload;

/** Predicts how a configuration serves a workload (the fleet simulation; a fake in tests). */
@FunctionalInterface
public interface Evaluator {
  FleetResult evaluate(Candidate candidate, Workload workload);
}
