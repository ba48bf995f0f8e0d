package dev.modelplane.router.request;

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
    String s = hostPort.trim();
    int colon = s.lastIndexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException("not host:port: " + hostPort);
    }
    String host = s.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    return new Destination(host, Integer.parseInt(s.substring(colon + 1)), pool == null ? null : pool.byHostPort(s));
  }

  public String hostPort() {
    return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
  }
}
