package dev.modelplane.router.gateway;

import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.request.ErrorCode;
import dev.modelplane.router.request.RequestInput;
import dev.modelplane.router.request.RouterException;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Where a client request goes, read from its request line and headers before any body byte: the pool (named by a
 * {@link PoolPath} prefix, else by the pool header), the URI forwarded, and what the gateway does with it. Every
 * route the gateway serves is told apart here.
 *
 * @param pool the pool that serves the request
 * @param uri the URI forwarded: the client's, or what follows a pool path prefix
 * @param path {@code uri}'s path
 * @param kind what the gateway does with the request
 */
record RequestRoute(EndpointPool pool, String uri, String path, Kind kind) {
  /** What the gateway does with a request of its pool. */
  enum Kind {
    /**
     * Any other request: its body is read, parsed by the parser of its path (a POST) or passed through (a path no
     * parser claims, any other method), scheduled and forwarded.
     */
    INFERENCE,
    /** {@code GET /v1/models}: no body and no scheduling, any endpoint of the pool answers. */
    MODEL_LIST,
    /** {@code CONNECT}, which asks a proxy for a tunnel rather than a model server for an answer: 404. */
    UNSUPPORTED
  }

  /**
   * The route of {@code req}.
   *
   * @throws RouterException 503 before endpoint discovery has synced, 400 for a malformed pool path, 404 for a pool
   *     the router does not serve
   */
  static RequestRoute resolve(HttpServerRequest req, PoolRegistry pools) {
    String unavailable = pools.unavailableReason();
    if (unavailable != null) {
      throw new RouterException(ErrorCode.SERVICE_UNAVAILABLE, unavailable);
    }
    PoolPath poolPath = PoolPath.parse(req.uri());
    String poolName = poolPath != null ? poolPath.pool().toString() : req.getHeader(PoolRegistry.POOL_HEADER);
    String uri = req.uri();
    String path = req.path();
    if (poolPath != null) {
      uri = poolPath.uri();
      int query = uri.indexOf('?');
      path = query < 0 ? uri : uri.substring(0, query);
    }
    EndpointPool pool = pools.resolve(poolName);
    if (pool == null) {
      throw new RouterException(ErrorCode.NOT_FOUND, "no such inference pool: " + poolName);
    }
    Kind kind = req.method() == HttpMethod.GET && path.startsWith("/v1/models") ? Kind.MODEL_LIST
        : req.method() == HttpMethod.CONNECT ? Kind.UNSUPPORTED : Kind.INFERENCE;
    return new RequestRoute(pool, uri, path, kind);
  }

  /** The 404 of an {@link Kind#UNSUPPORTED} request. */
  RouterException unsupported(HttpMethod method) {
    return new RouterException(ErrorCode.NOT_FOUND, "unsupported route " + method + " " + path);
  }

  /**
   * What the director is given to route the request: its headers (lower-cased, repeats joined, with the
   * {@code :path} and {@code :method} pseudo-headers ext_proc also gives) and its body.
   */
  RequestInput input(HttpServerRequest req, byte[] body, long receivedNanos) {
    Map<String, String> headers = new HashMap<>();
    req.headers().forEach(e -> headers.merge(e.getKey().toLowerCase(Locale.ROOT), e.getValue(), (a, b) -> a + "," + b));
    headers.put(":path", uri);
    headers.put(":method", req.method().name());
    return new RequestInput(pool, path, headers, body, null, receivedNanos);
  }
}
