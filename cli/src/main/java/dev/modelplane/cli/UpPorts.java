package dev.modelplane.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The ports {@code modelplane up} gives the router and the operator. A port of 0 asks {@code up} to pick one that
 * nothing listens on, right before it starts the processes: a script or a test running a platform beside others
 * passes 0 and reads the ports chosen from {@code up}'s output or from {@code platform.json}, rather than probing
 * for free ports itself and losing them to whatever starts in between (the dev cluster's own components, for one).
 *
 * @param gateway the router's OpenAI gateway ({@code --port})
 * @param grpc the router's ext_proc port
 * @param grpcHealth the router's gRPC health port
 * @param metrics the router's metrics port
 * @param operator the operator's health and metrics port
 */
record UpPorts(int gateway, int grpc, int grpcHealth, int metrics, int operator) {
  /** The flags that set them, in the order of the components. */
  static final String FLAGS = "--port, --grpc-port, --grpc-health-port, --metrics-port, --operator-port";

  List<Integer> all() {
    return List.of(gateway, grpc, grpcHealth, metrics, operator);
  }

  /** Whether any port is to be picked. */
  boolean picksAny() {
    return all().contains(0);
  }

  /** The first given (non-zero) port that cannot be bound on {@code host}: something listens there. */
  Optional<Integer> busy(String host) {
    return all().stream().filter(p -> p != 0 && !free(host, p)).findFirst();
  }

  /**
   * These ports with every 0 replaced by a port free on {@code host} at this moment, different from each other and
   * from the given ones.
   */
  UpPorts resolve(String host) throws IOException {
    List<Integer> ports = new ArrayList<>(all());
    Set<Integer> taken = new HashSet<>(ports);
    List<ServerSocket> held = new ArrayList<>();
    try {
      for (int i = 0; i < ports.size(); i++) {
        while (ports.get(i) == 0) {
          ServerSocket socket = new ServerSocket();
          held.add(socket); // held until all are picked, so no two picks are the same port
          socket.bind(new InetSocketAddress(host, 0));
          if (taken.add(socket.getLocalPort())) {
            ports.set(i, socket.getLocalPort());
          }
        }
      }
    } finally {
      for (ServerSocket socket : held) {
        socket.close();
      }
    }
    return new UpPorts(ports.get(0), ports.get(1), ports.get(2), ports.get(3), ports.get(4));
  }

  /** For the step 2 line: {@code gateway 8080, ext_proc 9002, gRPC health 9003, metrics 9090, operator 8081}. */
  String describe() {
    return "gateway " + gateway + ", ext_proc " + grpc + ", gRPC health " + grpcHealth + ", metrics " + metrics
        + ", operator " + operator;
  }

  private static boolean free(String host, int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(host, port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
