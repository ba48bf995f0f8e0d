package dev.modelplane.router.gateway;

import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.request.ErrorCode;
import dev.modelplane.router.request.PathPolicy;
import dev.modelplane.router.request.RequestInput;
import dev.modelplane.router.request.RouterException;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Where a client request goes, read from its request line and headers before any body byte: the pool (named by a
 * {@link PoolPath} prefix, else by the pool header, else the one pool the router serves; with several and none named
 * it is chosen later by the model the body names, {@link ModelRouting}), the URI forwarded, and what the gateway does
 * with it; a method or path the {@link PathPolicy} does not forward ends here. Every route the gateway serves is told
 * apart here.
 *
 * @param pool the pool that serves the request; {@code null} until the body's model chooses it
 * @param uri the URI forwarded: the client's with its path normalized, or what follows a pool path prefix
 * @param path {@code uri}'s path
 * @param kind what the gateway does with the request
 * @param routed whether the request came to a port a Gateway listener of ours names: its HTTPRoutes choose the pool
 *     (after the body is read, {@link GatewayRouting}), never a pool header, pool path or the model catalog
 * @param host the {@code Host} an HTTPRoute's URL rewrite sends upstream, or {@code null}
 */
record RequestRoute(EndpointPool pool, String uri, String path, Kind kind, boolean routed, String host) {
  /** What the gateway does with a request of its pool. */
  enum Kind {
    /**
     * Any other request the path policy forwards: its body is read, parsed by the parser of its path (a POST) or
     * passed through (a path no parser claims, any other method), scheduled and forwarded.
     */
    INFERENCE,
    /**
     * {@code GET /v1/models}: no body and no scheduling; any endpoint of the pool answers, or, with no pool named and
     * several served, the gateway itself from what every pool serves.
     */
    MODEL_LIST
  }

  /**
   * The route of {@code req}. Its path is {@link PathPolicy#normalize normalized} first: the pool prefix, the
   * parser, the path policy and the forwarded URI all see that one path.
   *
   * @param routed whether the request came to a port a Gateway listener of ours names (no pool is chosen here then)
   * @throws RouterException 503 before endpoint discovery has synced, 400 for a malformed path or pool path, 404 for
   *     a pool the router does not serve or a method or path {@code paths} does not forward
   */
  static RequestRoute resolve(HttpServerRequest req, PoolRegistry pools, PathPolicy paths, boolean routed) {
    String unavailable = pools.unavailableReason();
    if (unavailable != null) {
      throw new RouterException(ErrorCode.SERVICE_UNAVAILABLE, unavailable);
    }
    String raw = req.uri();
    PathPolicy.checkMethod(req.method().name(), raw);
    int queryStart = raw.indexOf('?');
    String query = queryStart < 0 ? "" : raw.substring(queryStart);
    String path = PathPolicy.normalize(queryStart < 0 ? raw : raw.substring(0, queryStart));
    String uri = path + query;
    Kind kind = req.method() == HttpMethod.GET && path.startsWith("/v1/models") ? Kind.MODEL_LIST : Kind.INFERENCE;
    if (routed) {
      PathPolicy.checkRouted(req.method().name(), path);
      return new RequestRoute(null, uri, path, kind, true, null);
    }
    PoolPath poolPath = PoolPath.parse(uri);
    String poolName = poolPath != null ? poolPath.pool().toString() : req.getHeader(PoolRegistry.POOL_HEADER);
    if (poolPath != null) {
      uri = poolPath.uri();
      int apiQuery = uri.indexOf('?');
      path = apiQuery < 0 ? uri : uri.substring(0, apiQuery);
    }
    paths.check(req.method().name(), path);
    EndpointPool pool = null;
    if (poolName != null && !poolName.isBlank()) {
      pool = pools.resolve(poolName);
      if (pool == null) {
        throw new RouterException(ErrorCode.NOT_FOUND, "no such inference pool: " + poolName);
      }
    } else {
      pool = pools.single();
    }
    kind = req.method() == HttpMethod.GET && path.startsWith("/v1/models") ? Kind.MODEL_LIST : Kind.INFERENCE;
    return new RequestRoute(pool, uri, path, kind, false, null);
  }

  /** {@code req}'s headers: names lower-cased, repeated headers joined with a comma. */
  static Map<String, String> joinedHeaders(HttpServerRequest req) {
    Map<String, String> headers = new HashMap<>();
    req.headers().forEach(e -> headers.merge(e.getKey().toLowerCase(Locale.ROOT), e.getValue(), (a, b) -> a + "," + b));
    return headers;
  }

  /** This route, served by {@code chosen}. */
  RequestRoute withPool(EndpointPool chosen) {
    return new RequestRoute(chosen, uri, path, kind, routed, host);
  }

  /** This route as an HTTPRoute rule sends it: to {@code chosen}, at {@code newPath}, with {@code newHost}. */
  RequestRoute rewritten(EndpointPool chosen, String newPath, String newHost) {
    int queryStart = uri.indexOf('?');
    String query = queryStart < 0 ? "" : uri.substring(queryStart);
    return new RequestRoute(chosen, newPath + query, newPath, kind, routed, newHost);
  }

  /**
   * What the director is given to route the request: its headers (lower-cased, repeats joined, with the
   * {@code :path} and {@code :method} pseudo-headers ext_proc also gives) and its body.
   */
  RequestInput input(HttpServerRequest req, byte[] body, long receivedNanos,
      dev.modelplane.router.request.RequestTrace trace) {
    Map<String, String> headers = joinedHeaders(req);
    headers.put(":path", uri);
    headers.put(":method", req.method().name());
    return new RequestInput(pool, path, headers, body, null, receivedNanos, trace);
  }
}
