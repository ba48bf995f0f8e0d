package dev.modelplane.cli.devcluster;

import java.util.List;

/**
 * How one model-server container of a pod is run as a simulator.
 *
 * @param kind the server the container runs
 * @param container the container's name
 * @param port the port the server listens on (the simulator binds the pod IP and this port)
 * @param args the simulator's flags, without {@code --host}/{@code --port}
 * @param ignored the container's flags that have no simulator meaning, each once
 * @param env environment the simulator process gets on top of the dev cluster's: the container's {@code OTEL_*}
 *     variables (tracing), with the pod's name and namespace as resource attributes when tracing may be on
 */
public record SimulatorPlan(ServerKind kind, String container, int port, List<String> args, List<String> ignored,
    java.util.Map<String, String> env) {
  public SimulatorPlan {
    args = List.copyOf(args);
    ignored = List.copyOf(ignored);
    env = java.util.Map.copyOf(env);
  }

  /** A plan that adds nothing to the environment. */
  public SimulatorPlan(ServerKind kind, String container, int port, List<String> args, List<String> ignored) {
    this(kind, container, port, args, ignored, java.util.Map.of());
  }

  /** This plan with {@code env} added to the simulator's environment. */
  public SimulatorPlan withEnv(java.util.Map<String, String> env) {
    return new SimulatorPlan(kind, container, port, args, ignored, env);
  }
}
