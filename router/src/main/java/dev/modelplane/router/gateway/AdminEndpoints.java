package dev.modelplane.router.gateway;

import dev.modelplane.router.metrics.MetricsAccess;
import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.PoolRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;

/**
 * The gateway's own endpoints beside the proxied API: {@code GET /health} (pools and endpoint counts),
 * {@code GET /readyz} (200 once endpoint discovery has synced, 503 with the reason before), {@code GET /livez} and
 * {@code GET /metrics}.
 */
final class AdminEndpoints {
  private final PoolRegistry pools;
  private final RouterMetrics metrics;
  private final MetricsAccess metricsAccess;
  private final Vertx vertx;

  AdminEndpoints(PoolRegistry pools, RouterMetrics metrics, MetricsAccess metricsAccess, Vertx vertx) {
    this.pools = pools;
    this.metrics = metrics;
    this.metricsAccess = metricsAccess;
    this.vertx = vertx;
  }

  /** Answers the request when it is for one of these endpoints; {@code false} otherwise. */
  boolean handle(HttpServerRequest req) {
    if (req.method() != HttpMethod.GET) {
      return false;
    }
    switch (req.path()) {
      case "/health" -> req.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/json").end(health());
      case "/livez" -> req.response().end("ok");
      case "/readyz" -> {
        String reason = pools.unavailableReason();
        if (reason == null) {
          req.response().end("ok");
        } else {
          req.response().setStatusCode(503).end("not ready: " + reason);
        }
      }
      case "/metrics" -> metricsAccess.serve(vertx, req, metrics::scrape);
      default -> {
        return false;
      }
    }
    return true;
  }

  private String health() {
    StringBuilder sb = new StringBuilder("{\"status\":\"ok\",\"pools\":[");
    boolean first = true;
    for (EndpointPool p : pools.pools()) {
      if (!first) {
        sb.append(',');
      }
      first = false;
      sb.append("{\"name\":\"").append(p.key()).append("\",\"endpoints\":").append(p.endpoints().size()).append('}');
    }
    return sb.append("]}").toString();
  }
}
