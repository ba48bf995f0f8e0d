package dev.modelplane.router.gateway;

import dev.modelplane.api.gie.v1.AppProtocol;
import dev.modelplane.router.gatewayapi.GatewayModel;
import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.models.ModelCatalog;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.request.RequestDirector;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * What the gateway hands every exchange on one event loop: the same for all its requests, so an exchange holds only
 * its own request's state.
 *
 * @param options the gateway's settings (with the port it listens on)
 * @param pools the inference pools served
 * @param director runs each request's lifecycle
 * @param metrics the router's metrics
 * @param accessLog where finished requests are logged; {@code null} when the access log is off
 * @param nanoClock the clock of timeouts, durations and the director's timings
 * @param vertx whose timers the exchange's timeouts run on
 * @param client the event loop's upstream HTTP/1.1 client
 * @param h2cClient the event loop's upstream client for pools whose servers speak HTTP/2 over cleartext
 * @param models which pool serves which model, for requests that name no pool; {@code null}: the default pool
 * @param routes the Gateway API routes in force (requests to a port one of our listeners names follow them alone)
 */
record GatewayContext(GatewayOptions options, PoolRegistry pools, RequestDirector director, RouterMetrics metrics,
    AccessLog accessLog, LongSupplier nanoClock, Vertx vertx, HttpClient client, HttpClient h2cClient,
    ModelCatalog models, Supplier<GatewayModel> routes) {

  /** The client for {@code pool}'s servers: HTTP/2 with prior knowledge for {@code kubernetes.io/h2c}. */
  HttpClient clientFor(EndpointPool pool) {
    return pool != null && pool.appProtocol() == AppProtocol.H2C ? h2cClient : client;
  }

  GatewayOptions.Limits limits() {
    return options.limits();
  }
}
