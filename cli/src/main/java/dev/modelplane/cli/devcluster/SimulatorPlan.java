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
 */
public record SimulatorPlan(ServerKind kind, String container, int port, List<String> args, List<String> ignored) {
  public SimulatorPlan {
    args = List.copyOf(args);
    ignored = List.copyOf(ignored);
  }
}
