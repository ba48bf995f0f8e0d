package dev.modelplane.router.pool;

/**
 * Identity of one endpoint: the namespace and name of its pod, suffixed {@code -rank-<i>} for the i-th target port
 * (GIE's naming), or {@code static/<host:port>} in static mode. The prefix index and per-endpoint state key on it.
 */
public record EndpointId(String namespace, String name) {
  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
