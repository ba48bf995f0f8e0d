package dev.modelplane.router.pool;

import dev.modelplane.common.net.HostPort;
import java.util.Map;

/**
 * One model-server endpoint: a pod address and one of the pool's target ports. Immutable; the live state (metrics,
 * in-flight count) lives in {@link EndpointState}.
 *
 * @param id stable identity
 * @param address IP address (or host name in static mode)
 * @param port target port
 * @param labels pod labels (role, engine type, …)
 */
public record Endpoint(EndpointId id, String address, int port, Map<String, String> labels) {
  public Endpoint {
    labels = labels == null ? Map.of() : Map.copyOf(labels);
  }

  /** {@code ip:port}, with brackets around an IPv6 address, as the Endpoint Picker Protocol writes it. */
  public String hostPort() {
    return joinHostPort(address, port);
  }

  /** Joins like Go's {@code net.JoinHostPort}. */
  public static String joinHostPort(String host, int port) {
    return HostPort.join(host, port);
  }

  /** An endpoint of static mode, named after its address. */
  public static Endpoint ofStatic(String host, int port) {
    String hostPort = joinHostPort(host, port);
    return new Endpoint(new EndpointId("static", hostPort), host, port, Map.of());
  }
}
