package dev.modelplane.router.gateway;

import dev.modelplane.router.gatewayapi.Backend;
import dev.modelplane.router.gatewayapi.GatewayModel;
import dev.modelplane.router.gatewayapi.HttpRequestView;
import dev.modelplane.router.gatewayapi.RouteMatch;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.request.ErrorCode;
import dev.modelplane.router.request.RouterException;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A request that came to a Gateway listener of ours, routed by the HTTPRoutes attached to it, as GIE prescribes: the
 * body's {@code model} is first exposed as the {@value #MODEL_HEADER} header (GIE's body-based routing), so a route
 * can match on it; the matching rule's filters change the headers and the path; its backends share the requests by
 * weight. No matching rule is a 404; a rule without a usable backend (none, or one that names no InferencePool this
 * gateway serves) is a 500, as Gateway API asks.
 */
final class GatewayRouting {
  /** The header carrying the body's model name, for HTTPRoute header matches. */
  static final String MODEL_HEADER = "x-gateway-model-name";

  private GatewayRouting() {
  }

  /**
   * {@code route} after the routes of the listener on {@code port} chose its pool; {@code req}'s headers are changed
   * in place (the model header, the rule's header filters), so everything downstream sees them.
   *
   * @param body the request body ({@code null} for a bodyless request)
   * @throws RouterException 404 when no rule matches, 500 when the rule has no usable backend
   */
  static RequestRoute apply(RequestRoute route, HttpServerRequest req, byte[] body, GatewayModel routes,
      PoolRegistry pools) {
    String model = body == null ? null : ModelRouting.model(req.getHeader("content-type"), body);
    if (model != null && !model.isEmpty()) {
      req.headers().set(MODEL_HEADER, model);
    }
    int port = req.localAddress() == null ? -1 : req.localAddress().port();
    int queryStart = route.uri().indexOf('?');
    String query = queryStart < 0 ? "" : route.uri().substring(queryStart + 1);
    RouteMatch match = routes.match(port, new HttpRequestView(req.method().name(), host(req), route.path(), query,
        RequestRoute.joinedHeaders(req)));
    if (match == null) {
      throw new RouterException(ErrorCode.NOT_FOUND, "no HTTPRoute rule matches " + req.method().name() + " "
          + route.path());
    }
    Backend backend = match.pick(ThreadLocalRandom.current().nextDouble());
    if (backend == null) {
      throw new RouterException(ErrorCode.INTERNAL, "HTTPRoute " + match.route() + " rule " + match.ruleIndex()
          + " has no backend to send the request to");
    }
    if (backend.pool() == null) {
      throw new RouterException(ErrorCode.INTERNAL, "HTTPRoute " + match.route() + " rule " + match.ruleIndex()
          + ": " + backend.invalidReason());
    }
    EndpointPool pool = pools.get(backend.pool());
    if (pool == null) {
      throw new RouterException(ErrorCode.INTERNAL, "HTTPRoute " + match.route() + " sends the request to "
          + "InferencePool " + backend.pool() + ", which this gateway does not serve");
    }
    Map<String, List<String>> headers = new LinkedHashMap<>();
    req.headers().forEach(e -> headers.computeIfAbsent(e.getKey().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
        .add(e.getValue()));
    match.applyHeaderFilters(backend, headers);
    MultiMap out = req.headers();
    out.clear();
    headers.forEach((name, values) -> values.forEach(v -> out.add(name, v)));
    return route.rewritten(pool, match.rewrittenPath(route.path()), match.rewrittenHost());
  }

  /** The request's host, without a port (an IPv6 literal keeps its brackets). */
  private static String host(HttpServerRequest req) {
    String host = req.authority() == null ? req.getHeader("host") : req.authority().host();
    if (host == null) {
      return "";
    }
    int colon = host.lastIndexOf(':');
    if (req.authority() == null && colon > host.lastIndexOf(']')) {
      host = host.substring(0, colon);
    }
    return host.toLowerCase(Locale.ROOT);
  }
}
