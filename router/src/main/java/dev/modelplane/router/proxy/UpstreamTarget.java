package dev.modelplane.router.proxy;

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
    String s = hostPort.trim();
    int colon = s.lastIndexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException("not host:port: " + hostPort);
    }
    String host = s.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    return new UpstreamTarget(host, Integer.parseInt(s.substring(colon + 1)), state);
  }

  public String hostPort() {
    return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
  }
}
