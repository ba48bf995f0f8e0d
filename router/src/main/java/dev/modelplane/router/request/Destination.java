package dev.modelplane.router.request;

import dev.modelplane.common.net.HostPort;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;

/**
 * An endpoint a request is sent to (GIE's "destination endpoint"): its address and, when the pool knows it, its live
 * state.
 *
 * @param host address
 * @param port port
 * @param state live endpoint state; {@code null} when an external picker chose an endpoint this router does not know
 */
public record Destination(String host, int port, EndpointState state) {
  public static Destination of(EndpointState state) {
    return new Destination(state.endpoint().address(), state.endpoint().port(), state);
  }

  /** Parses {@code host:port} / {@code [v6]:port}, attaching the pool's state for that address when it has one. */
  public static Destination parse(String hostPort, EndpointPool pool) {
    HostPort address = HostPort.parse(hostPort);
    return new Destination(address.host(), address.port(), pool == null ? null : pool.byHostPort(address.toString()));
  }

  public String hostPort() {
    return HostPort.join(host, port);
  }
}
