package dev.modelplane.planner.fleet;

import java.util.List;

/**
 * A fleet to simulate: {@code replicas} model servers, each configured by {@code simulatorArgs} (the simulator's own
 * command line, e.g. {@code --model-config llama-3.1-8b --gpu h100 --tensor-parallel-size 1 --served-model-name m}),
 * behind one router running {@code profile}.
 *
 * @param simulatorArgs flags of {@code modelplane simulator} for every replica (without --host and --port)
 * @param replicas model servers
 * @param profile the router's scheduling
 */
public record FleetConfig(List<String> simulatorArgs, int replicas, RouterProfile profile) {
  public FleetConfig {
    simulatorArgs = List.copyOf(simulatorArgs);
    if (replicas < 1) {
      throw new IllegalArgumentException("replicas must be >= 1, got " + replicas);
    }
  }
}
