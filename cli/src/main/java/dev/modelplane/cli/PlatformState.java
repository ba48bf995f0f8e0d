package dev.modelplane.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What {@code modelplane up} started beside the dev cluster, in {@code <state-dir>/platform.json}: the operator's and
 * the router's process IDs, the cluster process they were started against, and their ports (the ones {@code up} was
 * given, or picked for it; the four after {@code port} are 0 in a file from a version that did not record them).
 *
 * @param clusterPid the dev cluster's process when the others were started
 * @param operatorPid the operator's process
 * @param routerPid the router's process
 * @param host the router's listen address
 * @param port the router's OpenAI gateway port
 * @param grpcPort the router's ext_proc port
 * @param grpcHealthPort the router's gRPC health port
 * @param metricsPort the router's metrics port
 * @param operatorPort the operator's health and metrics port
 */
record PlatformState(long clusterPid, long operatorPid, long routerPid, String host, int port, int grpcPort,
    int grpcHealthPort, int metricsPort, int operatorPort) {
  static final String FILE = "platform.json";

  PlatformState(long clusterPid, long operatorPid, long routerPid, String host, UpPorts ports) {
    this(clusterPid, operatorPid, routerPid, host, ports.gateway(), ports.grpc(), ports.grpcHealth(), ports.metrics(),
        ports.operator());
  }

  /** The ports, when this file recorded them all. */
  Optional<UpPorts> ports() {
    UpPorts ports = new UpPorts(port, grpcPort, grpcHealthPort, metricsPort, operatorPort);
    return ports.picksAny() ? Optional.empty() : Optional.of(ports);
  }

  static Optional<PlatformState> read(Path dir) {
    Path file = dir.resolve(FILE);
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of(DevClusterCommand.JSON.readValue(file.toFile(), PlatformState.class));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  void write(Path dir) throws IOException {
    Path tmp = dir.resolve(FILE + ".tmp");
    DevClusterCommand.JSON.writeValue(tmp.toFile(), this);
    Files.move(tmp, dir.resolve(FILE), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  /** Whether the operator and router still run, against the cluster process {@code clusterPid}. */
  boolean runningAgainst(long currentClusterPid) {
    return clusterPid == currentClusterPid && alive(operatorPid) && alive(routerPid);
  }

  static boolean alive(long pid) {
    return pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  /** Stops the operator and the router (SIGTERM, then SIGKILL after 20 s). */
  void stop() {
    for (long pid : new long[] {routerPid, operatorPid}) {
      ProcessHandle.of(pid).filter(ProcessHandle::isAlive).ifPresent(handle -> {
        handle.destroy();
        try {
          handle.onExit().get(20, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
          handle.destroyForcibly();
        }
      });
    }
  }
}
