package dev.modelplane.router.gateway;

import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.request.RequestDirector;
import dev.modelplane.router.request.RoutingDecision;
import io.vertx.core.MultiMap;
import java.util.Locale;
import java.util.Set;

/** Which headers cross the gateway: hop-by-hop headers never do; the routing decision's changes are applied. */
final class ForwardedHeaders {
  /** The response header naming the endpoint that served the request. */
  static final String SERVED = "x-gateway-destination-endpoint-served";
  private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-authenticate",
      "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade", "host", "content-length",
      "proxy-connection", PoolRegistry.POOL_HEADER);

  private ForwardedHeaders() {
  }

  /**
   * The upstream request's headers: the client's, minus hop-by-hop and removed ones, plus the decision's (its
   * pseudo-headers excepted: a {@code :path} set by an external picker is the upstream URI, see {@link #upstreamUri}).
   */
  static MultiMap upstreamRequest(MultiMap client, RoutingDecision decision) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    client.forEach(e -> {
      String name = e.getKey().toLowerCase(Locale.ROOT);
      if (!HOP_BY_HOP.contains(name) && !decision.request().removedHeaders().contains(name)
          && !decision.request().setHeaders().containsKey(name)) {
        headers.add(e.getKey(), e.getValue());
      }
    });
    decision.request().setHeaders().forEach((name, value) -> {
      if (!name.startsWith(":")) {
        headers.set(name, value);
      }
    });
    headers.set(RequestDirector.REQUEST_ID, decision.request().requestId());
    return headers;
  }

  /** The upstream request's URI: the {@code :path} a picker set, else the client's. */
  static String upstreamUri(String clientUri, RoutingDecision decision) {
    String path = decision.request().setHeaders().get(":path");
    return path == null || path.isBlank() ? clientUri : path;
  }

  /** Copies the upstream response's end-to-end headers to the client response. */
  static void copyResponse(MultiMap upstream, MultiMap client) {
    upstream.forEach(e -> {
      if (!HOP_BY_HOP.contains(e.getKey().toLowerCase(Locale.ROOT))) {
        client.add(e.getKey(), e.getValue());
      }
    });
  }
}
