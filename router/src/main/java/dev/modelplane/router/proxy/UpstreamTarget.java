package dev.modelplane.router.proxy;

import dev.modelplane.common.net.HostPort;
import dev.modelplane.router.pool.EndpointState;

/**
 * An endpoint to send a request to: its address and, when the router knows it, its live state.
 *
 * @param host address
 * @param port port
 * @param state live endpoint state, {@code null} when an external picker chose an endpoint unknown here
 */
public record UpstreamTarget(String host, int port, EndpointState state) {
  public static UpstreamTarget of(EndpointState state) {
    return new UpstreamTarget(state.endpoint().address(), state.endpoint().port(), state);
  }

  /** Parses {@code host:port} / {@code [v6]:port}. */
  public static UpstreamTarget parse(String hostPort, EndpointState state) {
    HostPort address = HostPort.parse(hostPort);
    return new UpstreamTarget(address.host(), address.port(), state);
  }

  public String hostPort() {
    return HostPort.join(host, port);
  }
}
