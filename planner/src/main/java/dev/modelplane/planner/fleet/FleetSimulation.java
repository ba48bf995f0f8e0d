package dev.modelplane.planner.fleet;

import dev.modelplane.planner.workload.Workload;

/**
 * Runs a fleet over a workload in virtual time: the simulator's engine steps for every replica and the router's
 * admission, flow control and scheduling deciding where each request goes, with no sockets and no sleeping.
 */
public final class FleetSimulation {
  private FleetSimulation() {
  }

  /** Runs {@code workload} through {@code fleet}; {@code seed} fixes every random choice. */
  public static FleetResult run(FleetConfig fleet, Workload workload, long seed) {
    return new Fleet(fleet, workload, seed).run();
  }
}
