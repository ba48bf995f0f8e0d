package dev.modelplane.router.gateway;


import dev.modelplane.router.gatewayapi.GatewayModel;
import dev.modelplane.router.metrics.MetricsAccess;
import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.models.ModelCatalog;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.request.RequestDirector;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.Http2Settings;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.PoolOptions;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The standalone OpenAI-compatible gateway: one HTTP server and one upstream client per event loop, so a request's
 * downstream and upstream connections live on the same thread.
 */
public final class GatewayServer {
  private static final Logger LOG = LoggerFactory.getLogger(GatewayServer.class);

  private final Vertx vertx;
  private final GatewayOptions options;
  private final RequestDirector director;
  private final PoolRegistry pools;
  private final RouterMetrics metrics;
  private final AccessLog accessLog;
  private final LongSupplier nanoClock;
  private final AtomicInteger boundPort = new AtomicInteger();
  private final java.util.List<String> deploymentIds = new java.util.concurrent.CopyOnWriteArrayList<>();
  private volatile MetricsAccess metricsAccess = MetricsAccess.open();
  private volatile ModelCatalog models;
  /** The Gateway API routes: requests to a port a listener of ours names are routed by them alone. */
  private volatile GatewayModel routes = GatewayModel.empty();
  /** The deployments serving Gateway listener ports other than the main one, by port. */
  private final Map<Integer, String> listenerDeployments = new java.util.concurrent.ConcurrentHashMap<>();
  private volatile GatewayOptions started;

  public GatewayServer(Vertx vertx, GatewayOptions options, RequestDirector director, PoolRegistry pools,
      RouterMetrics metrics, AccessLog accessLog, LongSupplier nanoClock) {
    this.vertx = vertx;
    this.options = options;
    this.director = director;
    this.pools = pools;
    this.metrics = metrics;
    this.accessLog = accessLog;
    this.nanoClock = nanoClock;
  }

  /**
   * Where a request that names no pool goes when several are served: to the pool serving its model. Without a catalog
   * it goes to the default pool. Set before {@link #start()}.
   */
  public GatewayServer models(ModelCatalog catalog) {
    this.models = catalog;
    return this;
  }

  /** Who may read {@code GET /metrics} on this port (default: anyone); set before {@link #start()}. */
  public GatewayServer protectMetrics(MetricsAccess access) {
    this.metricsAccess = access;
    return this;
  }

  /** Starts listening; completes with the bound port. */
  public Future<Integer> start() {
    int instances = Math.max(1, options.eventLoops());
    GatewayOptions opts = options;
    if (options.port() == 0 && instances > 1) {
      // Vert.x shares a listening socket between instances keyed by the configured port, so port 0 would give each
      // instance its own random port: choose one free port first.
      try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1,
          java.net.InetAddress.getByName(options.host()))) {
        opts = options.withPort(probe.getLocalPort());
      } catch (java.io.IOException e) {
        return Future.failedFuture(e);
      }
    }
    GatewayOptions chosen = opts;
    return deploy(opts, instances, true).map(id -> {
      started = chosen.withPort(boundPort.get());
      return boundPort.get();
    });
  }

  private Future<String> deploy(GatewayOptions opts, int instances, boolean main) {
    if (instances <= 0) {
      return Future.succeededFuture("");
    }
    return vertx.deployVerticle(() -> new GatewayVerticle(opts, main), new DeploymentOptions()
        .setInstances(instances)).onSuccess(id -> {
          deploymentIds.add(id);
          LOG.atInfo().addKeyValue("host", opts.host()).addKeyValue("port", main ? boundPort.get() : opts.port())
              .addKeyValue("event_loops", instances).log(main ? "gateway listening" : "gateway listener listening");
        });
  }

  /**
   * Routes requests by {@code model}'s HTTPRoutes from now on, and listens on exactly the ports its listeners name
   * (besides the main port, which keeps listening: with a listener on it, it too is routed by the routes alone).
   * Completes with the ports that could not be bound, each with the reason.
   */
  public Future<Map<Integer, String>> routes(GatewayModel model) {
    this.routes = model;
    GatewayOptions base = started;
    if (base == null) {
      return Future.failedFuture(new IllegalStateException("the gateway has not started"));
    }
    java.util.List<Future<?>> changes = new java.util.ArrayList<>();
    Map<Integer, String> failed = new java.util.concurrent.ConcurrentHashMap<>();
    for (var it = listenerDeployments.entrySet().iterator(); it.hasNext(); ) {
      var e = it.next();
      if (!model.serves(e.getKey())) {
        it.remove();
        deploymentIds.remove(e.getValue());
        changes.add(vertx.undeploy(e.getValue()).onSuccess(v -> LOG.atInfo().addKeyValue("port", e.getKey())
            .log("gateway listener closed")));
      }
    }
    for (int port : model.listenerPorts()) {
      if (port == base.port() || listenerDeployments.containsKey(port)) {
        continue;
      }
      listenerDeployments.put(port, "");
      changes.add(deploy(base.withPort(port), Math.max(1, base.eventLoops()), false)
          .onSuccess(id -> listenerDeployments.put(port, id))
          .onFailure(t -> {
            listenerDeployments.remove(port);
            failed.put(port, t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage());
            LOG.atWarn().addKeyValue("port", port).addKeyValue("error", t.getMessage())
                .log("cannot listen on a Gateway listener's port");
          }));
    }
    return Future.join(changes).transform(ar -> Future.succeededFuture(Map.copyOf(failed)));
  }

  /** The Gateway API routes in force. */
  public GatewayModel routes() {
    return routes;
  }

  public int port() {
    return boundPort.get();
  }

  private final class GatewayVerticle extends VerticleBase {
    private final GatewayOptions opts;
    private final boolean main;
    private HttpServer server;
    private HttpClient client;
    private HttpClient h2cClient;

    GatewayVerticle(GatewayOptions opts, boolean main) {
      this.opts = opts;
      this.main = main;
    }

    private HttpClientOptions upstreamOptions() {
      return new HttpClientOptions()
          .setConnectTimeout((int) opts.connectTimeout().toMillis())
          .setKeepAlive(true)
          .setKeepAliveTimeout(60)
          .setTcpNoDelay(true)
          .setDecompressionSupported(false);
    }

    @Override
    public Future<?> start() {
      client = vertx.createHttpClient(upstreamOptions(), new PoolOptions()
          .setHttp1MaxSize(opts.maxConnectionsPerEndpoint()));
      // HTTP/2 with prior knowledge (no upgrade): what a pool with appProtocol kubernetes.io/h2c asks for. One
      // connection per endpoint carries many streams.
      h2cClient = vertx.createHttpClient(upstreamOptions().setProtocolVersion(HttpVersion.HTTP_2)
          .setHttp2ClearTextUpgrade(false), new PoolOptions().setHttp2MaxSize(1));
      server = vertx.createHttpServer(new HttpServerOptions()
          .setHost(opts.host())
          .setPort(opts.port())
          .setTcpNoDelay(true)
          .setCompressionSupported(false)
          // HTTP/1.1 only: OpenAI clients speak it, and an h2c upgrade of a request with a body is a corner case
          // no inference client relies on.
          .setHttp2ClearTextEnabled(false)
          .setMaxInitialLineLength(opts.limits().maxInitialLineBytes())
          .setMaxHeaderSize(opts.limits().maxHeaderBytes())
          .setInitialSettings(new Http2Settings().setMaxConcurrentStreams(opts.limits().maxHttp2Streams())));
      GatewayContext ctx = new GatewayContext(opts, pools, director, metrics, accessLog, nanoClock, vertx, client,
          h2cClient, models, () -> routes);
      AdminEndpoints admin = new AdminEndpoints(pools, metrics, metricsAccess, vertx);
      // The connection's own timeouts (Vert.x's idle timeout would also cut a long generation in progress).
      Map<HttpConnection, ClientConnectionGuard> guards = new HashMap<>();
      server.connectionHandler(conn -> {
        ClientConnectionGuard guard = new ClientConnectionGuard(vertx, conn, opts.limits(), metrics);
        guards.put(conn, guard);
        conn.closeHandler(v -> {
          ClientConnectionGuard g = guards.remove(conn);
          if (g != null) {
            g.closed();
          }
        });
      });
      server.requestHandler(req -> {
        ClientConnectionGuard guard = guards.get(req.connection());
        if (guard != null) {
          guard.requestStarted(req);
        }
        if (!admin.handle(req)) {
          new ProxyExchange(req, ctx, guard).run();
        }
      });
      Promise<Void> started = Promise.promise();
      server.listen().onSuccess(s -> {
        if (!main) {
          started.complete();
          return;
        }
        int previous = boundPort.compareAndExchange(0, s.actualPort());
        if (previous != 0 && previous != s.actualPort()) {
          LOG.atWarn().addKeyValue("first", previous).addKeyValue("this", s.actualPort())
              .log("gateway instances bound different ports");
        }
        started.complete();
      }).onFailure(started::fail);
      return started.future();
    }

    @Override
    public Future<?> stop() {
      return server.close().eventually(() -> client.close()).eventually(() -> h2cClient.close());
    }
  }

  public Future<Void> stop() {
    return Future.all(deploymentIds.stream().map(vertx::undeploy).toList()).mapEmpty();
  }
}
