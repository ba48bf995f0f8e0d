package dev.modelplane.router;

import dev.modelplane.common.tracing.Tracing;
import dev.modelplane.router.request.RequestTracer;
import dev.modelplane.router.config.ConfigLoader;
import dev.modelplane.router.config.PluginRegistry;
import dev.modelplane.router.config.SchedulingSetup;
import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.extproc.ExtProcPickerClient;
import dev.modelplane.router.extproc.ExtProcServer;
import dev.modelplane.router.extproc.ExtProcService;
import dev.modelplane.router.extproc.GrpcTls;
import dev.modelplane.router.extproc.PoolPickerClients;
import dev.modelplane.router.gateway.AccessLog;
import dev.modelplane.router.gateway.GatewayServer;
import dev.modelplane.router.metrics.MetricsAccess;
import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.models.ModelCatalog;
import dev.modelplane.router.models.ModelLister;
import dev.modelplane.router.plugin.Plugin;
import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.router.plugin.PromptTokenizer;
import dev.modelplane.router.pool.EndpointListener;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.KubernetesDiscovery;
import dev.modelplane.router.pool.PickerEndpoints;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.pool.SelfAddress;
import dev.modelplane.router.pool.StaticEndpoints;
import dev.modelplane.router.prefix.ApproxPrefixCacheProducer;
import dev.modelplane.router.prefix.precise.PrecisePrefixCacheProducer;
import dev.modelplane.router.prefix.precise.PrecisePrefixCacheScorer;
import dev.modelplane.router.request.RequestDirector;
import dev.modelplane.router.ui.LiveView;
import dev.modelplane.router.ui.LiveViewEndpoints;
import io.grpc.ManagedChannel;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Supplier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Wires one router process: pools, scraping, scheduling, and the front ends (gateway, ext_proc). */
public final class Router implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Router.class);

  private final RouterOptions options;
  private final Vertx vertx;
  private final PoolRegistry pools = new PoolRegistry();
  private final RouterMetrics metrics;
  private final SchedulingSetup setup;
  private final RequestDirector director;
  private final MetricsScraper scraper;
  private final ModelLister modelLister;
  private final ExecutorService learner;
  private final ScheduledExecutorService flowExecutor;
  private final AccessLog accessLog;
  private GatewayServer gateway;
  private ExtProcServer extProcServer;
  private volatile Tracing tracing = Tracing.off();
  private ManagedChannel eppChannel;
  private PoolPickerClients poolPickers;
  private AutoCloseable discovery;
  private dev.modelplane.router.gatewayapi.GatewayController gatewayApi;
  private io.vertx.core.http.HttpServer metricsServer;
  private MetricsAccess metricsAccess = MetricsAccess.open();
  /** The live page's state ({@code /ui} on the metrics port); {@code null} without a metrics port. */
  private final LiveView liveView;
  private volatile PickerEndpoints pickerEndpoints;
  private ScheduledFuture<?> syncCheck;
  private volatile String lastSyncState = "";

  public Router(RouterOptions options) {
    this(options, PromptTokenizer.NONE);
  }

  /**
   * @param tokenizer the model servers' tokenizers, for {@code precise-prefix-cache-scorer} (without one it scores
   *     from the approximate prefix index)
   */
  public Router(RouterOptions options, PromptTokenizer tokenizer) {
    this.options = options;
    // epoll where the native library loads (Linux x86_64/aarch64), NIO elsewhere or with -Dmodelplane.transport=nio.
    this.vertx = Vertx.vertx(new VertxOptions()
        .setPreferNativeTransport(!"nio".equalsIgnoreCase(System.getProperty("modelplane.transport"))));
    this.learner = Executors.newSingleThreadExecutor(r -> Thread.ofPlatform().daemon().name("prefix-learner")
        .unstarted(r));
    this.flowExecutor = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon()
        .name("flow-control").unstarted(r));
    this.metrics = new RouterMetrics(pools, System::nanoTime, options.metricsStaleness().toNanos());
    PluginEnvironment env = new PluginEnvironment(System::nanoTime, ThreadLocalRandom::current, learner, metrics,
        tokenizer);
    String yaml = options.configYaml() == null ? ConfigLoader.DEFAULT_CONFIG : options.configYaml();
    this.setup = new ConfigLoader(PluginRegistry.builtIn(), env, metrics).load(yaml);
    metrics.labels.knownModels(this::servedByPools);
    if (setup.prefixProducer() != null) {
      metrics.prefixIndexSize(() -> setup.prefixProducer().index().size());
    }
    if (options.externalEpp() != null) {
      try {
        eppChannel = GrpcTls.channel(options.externalEpp(), options.eppTls());
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException("--epp " + options.externalEpp() + ": " + e.getMessage(), e);
      }
      this.director = new RequestDirector(setup, metrics, System::nanoTime, flowExecutor,
          new ExtProcPickerClient(eppChannel, Duration.ofSeconds(10), flowExecutor), options.failOpen(),
          options.requestLimits());
    } else {
      this.director = new RequestDirector(setup, metrics, System::nanoTime, flowExecutor, null, false,
          options.requestLimits());
    }
    this.scraper = new MetricsScraper(vertx, setup.metricsExtractor(), options.scrape(), System::nanoTime,
        director::poolUpdated);
    pools.addListener(scraper);
    // The gateway routes a request that names no pool by its model: ask the servers what they serve.
    this.modelLister = options.gateway() == null ? null : new ModelLister(vertx, ModelLister.Settings.DEFAULT);
    if (modelLister != null) {
      pools.addListener(modelLister);
    }
    for (Plugin p : setup.plugins().values()) {
      if (p instanceof EndpointListener listener) {
        pools.addListener(listener); // e.g. the precise prefix scorer reads each endpoint's KV-cache events
      }
      if (p instanceof PrecisePrefixCacheScorer precise) {
        metrics.precisePrefixIndexes(precise::statuses);
      }
      if (p instanceof PrecisePrefixCacheProducer precise) {
        metrics.precisePrefixIndexes(precise::statuses);
      }
    }
    ApproxPrefixCacheProducer producer = setup.prefixProducer();
    if (producer != null) {
      pools.addListener(new EndpointListener() {
        @Override
        public void added(EndpointPool pool, EndpointState endpoint) {
        }

        @Override
        public void removed(EndpointPool pool, EndpointState endpoint) {
          learner.execute(() -> producer.index().removeEndpoint(endpoint.id()));
        }

        @Override
        public void replaced(EndpointPool pool, EndpointState before, EndpointState after) {
          // Same pod, new labels: its cache is still there.
        }
      });
    }
    this.accessLog = options.gateway() != null && options.gateway().accessLog() ? new AccessLog() : null;
    this.liveView = options.metricsPort() >= 0 ? LiveView.of(pools, options.metricsStaleness()) : null;
    if (liveView != null) {
      liveView.pickers(this::pickerName);
      director.liveView(liveView);
    }
  }

  /** Who picks for {@code pool}, as the live page names it. */
  private String pickerName(EndpointPool pool) {
    if (options.externalEpp() != null) {
      return "external " + options.externalEpp();
    }
    PickerEndpoints pickers = pickerEndpoints;
    dev.modelplane.router.pool.PoolPicker picker = pickers == null ? null : pickers.picker(pool.key());
    if (picker == null || picker.self()) {
      return "in-process";
    }
    return picker.addresses().isEmpty() ? picker.name() + " (no ready address)" : picker.name();
  }

  /** The live page's state; {@code null} when the router has no metrics port. */
  public LiveView liveView() {
    return liveView;
  }

  /** An InferenceObjective's name or a LoRA adapter an endpoint reports: a model name the pools serve. */
  private boolean servedByPools(String name) {
    for (EndpointPool p : pools.pools()) {
      if (p.hasObjective(name)) {
        return true;
      }
      for (EndpointState s : p.endpoints()) {
        if (s.metrics().activeModels().contains(name) || s.metrics().waitingModels().contains(name)) {
          return true;
        }
      }
    }
    return false;
  }

  public PoolRegistry pools() {
    return pools;
  }

  public RouterMetrics metrics() {
    return metrics;
  }

  public SchedulingSetup setup() {
    return setup;
  }

  public RequestDirector director() {
    return director;
  }

  public Vertx vertx() {
    return vertx;
  }

  /** Starts everything; returns once the listeners are bound. */
  public Router start() throws Exception {
    if (vertx.isNativeTransportEnabled()) {
      LOG.atInfo().addKeyValue("native", true).log("network transport");
    } else {
      LOG.atInfo().addKeyValue("native", false).addKeyValue("reason", vertx.unavailableNativeTransportCause() == null
          ? "-Dmodelplane.transport=nio" : vertx.unavailableNativeTransportCause().toString()).log("network transport");
    }
    if (options.staticEndpoints() != null) {
      EndpointPool pool = pools.getOrCreate(PoolKey.STATIC);
      pool.setEndpoints(StaticEndpoints.parse(options.staticEndpoints()));
      LOG.atInfo().addKeyValue("count", pool.endpoints().size()).log("static endpoints");
    }
    if (options.grpcPort() >= 0) {
      extProcServer = new ExtProcServer(options.host(),
          options.grpcPort(), options.grpcHealthPort(),
          new ExtProcService(director, pools, metrics, options.disableSubsetFilter(), options.extProcMaxBodyBytes()),
          options.extProcTls());
      extProcServer.ready(discovery == null && pools.unavailableReason() == null);
    }
    if (options.gateway() != null) {
      if (options.externalEpp() != null) {
        LOG.atInfo().addKeyValue("epp", options.externalEpp())
            .addKeyValue("failure_mode", options.failOpen() ? "FailOpen" : "FailClose")
            .log("client mode: delegating picking");
      }
      gateway = new GatewayServer(vertx, options.gateway(), director, pools, metrics, accessLog, System::nanoTime)
          .protectMetrics(metricsAccess).models(new ModelCatalog(pools, modelLister));
      gateway.start().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
    if (options.metricsPort() >= 0) {
      // The metrics port answers /ui and /ui/state with the live page (read-only, same access as /metrics) and
      // every other path with the metrics, as before.
      LiveViewEndpoints ui = new LiveViewEndpoints(liveView, metricsAccess, vertx);
      metricsServer = vertx.createHttpServer().requestHandler(r -> {
        if (!ui.handle(r)) {
          metricsAccess.serve(vertx, r, metrics::scrape);
        }
      });
      metricsServer.listen(options.metricsPort(), options.host())
          .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      LOG.atInfo().addKeyValue("port", metricsServer.actualPort()).log("metrics listening");
    }
    return this;
  }

  /**
   * Who may read {@code /metrics} on the metrics port and the gateway's (default: anyone); GIE's
   * {@code --metrics-endpoint-auth}. Call before {@link #start()}.
   */
  public void protectMetrics(MetricsAccess access) {
    this.metricsAccess = access;
  }

  /**
   * Discovery of {@code selection}'s pools, attached to this router ({@link #attachDiscovery}, {@link #followSync}
   * every {@code syncInterval}); unless {@link RouterOptions#followsPickerRefs()} is off, the gateway also follows
   * the endpoint pickers the pools name. Start it after {@link #start()} (self detection needs the ext_proc port).
   */
  public KubernetesDiscovery discover(io.fabric8.kubernetes.client.KubernetesClient client,
      KubernetesDiscovery.Selection selection, Duration syncInterval) {
    KubernetesDiscovery discovery = new KubernetesDiscovery(client, pools, selection);
    if (options.followsPickerRefs()) {
      PickerEndpoints pickers = new PickerEndpoints(client, SelfAddress.ofInterfaces(this::extProcPort));
      pickerEndpoints = pickers;
      discovery.followPickerRefs(pickers);
      poolPickers = new PoolPickerClients(pickers, options.eppTls(), Duration.ofSeconds(10), flowExecutor);
      director.poolPickers(poolPickers);
    }
    attachDiscovery(discovery);
    followSync(discovery::unavailableReason, discovery::degradedReason, syncInterval);
    return discovery;
  }

  /** The gateway's clients of the pools' own pickers; {@code null} unless {@link #discover} follows them. */
  public PoolPickerClients poolPickers() {
    return poolPickers;
  }

  /** Attaches discovery (closed with the router); readiness follows its first sync. */
  public void attachDiscovery(AutoCloseable c) {
    this.discovery = c;
  }

  /**
   * Follows endpoint discovery: until {@code unavailableReason} answers null, both front ends answer 503 with its
   * reason and readiness is off; re-checked every {@code interval} for as long as the router runs, with each change
   * logged (and {@code degradedReason}: a lost watch, which keeps routing on the last known endpoints).
   */
  public void followSync(Supplier<String> unavailableReason, Supplier<String> degradedReason, Duration interval) {
    Runnable check = () -> {
      String reason = unavailableReason.get();
      pools.unavailableReason(reason);
      ready(reason == null);
      String degraded = reason == null ? degradedReason.get() : null;
      String state = reason != null ? "waiting" : degraded == null ? "synced" : "degraded";
      if (!state.equals(lastSyncState)) {
        lastSyncState = state;
        switch (state) {
          case "waiting" -> LOG.atWarn().addKeyValue("reason", reason)
              .log("not ready: waiting for endpoint discovery; requests are answered 503");
          case "synced" -> LOG.atInfo().log("endpoint discovery synced; ready");
          default -> LOG.atWarn().addKeyValue("reason", degraded)
              .log("endpoint discovery is behind; still ready, routing on the last known endpoints");
        }
      }
    };
    check.run();
    syncCheck = flowExecutor.scheduleWithFixedDelay(() -> {
      try {
        check.run();
      } catch (RuntimeException e) {
        LOG.atWarn().addKeyValue("error", e.toString()).log("sync check failed");
      }
    }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Marks the pools as synced (gRPC readiness). */
  public void ready(boolean ready) {
    if (extProcServer != null) {
      extProcServer.ready(ready);
    }
  }

  public int extProcPort() {
    return extProcServer == null ? -1 : extProcServer.port();
  }

  public int grpcHealthPort() {
    return extProcServer == null ? -1 : extProcServer.healthPort();
  }

  /**
   * Makes the gateway a Gateway API implementation for the GatewayClasses whose {@code controllerName} is
   * {@code controllerName}: it listens on their Gateways' listener ports and routes by their HTTPRoutes, and writes
   * their status. Call after {@link #start()}; closed with the router.
   */
  public dev.modelplane.router.gatewayapi.GatewayController serveGatewayApi(
      io.fabric8.kubernetes.client.KubernetesClient client, String controllerName) {
    GatewayServer gw = gateway;
    if (gw == null) {
      throw new IllegalStateException("the Gateway API needs the HTTP gateway (--port)");
    }
    String host = options.gateway().host();
    gatewayApi = new dev.modelplane.router.gatewayapi.GatewayController(client, controllerName,
        new dev.modelplane.router.gatewayapi.GatewayController.Listeners() {
          @Override
          public java.util.concurrent.CompletionStage<java.util.Map<Integer, String>> apply(
              dev.modelplane.router.gatewayapi.GatewayModel model) {
            return gw.routes(model).toCompletionStage();
          }

          @Override
          public String address() {
            return host;
          }
        }).start();
    return gatewayApi;
  }

  public int gatewayPort() {
    return gateway == null ? -1 : gateway.port();
  }

  public int metricsPort() {
    return metricsServer == null ? -1 : metricsServer.actualPort();
  }

  /** Traces every request as {@code tracing} says (off by default); closed, with a flush, when the router closes. */
  public void tracing(Tracing tracing) {
    this.tracing = tracing;
    director.tracer(new RequestTracer(tracing));
  }

  @Override
  public void close() {
    if (syncCheck != null) {
      syncCheck.cancel(false);
    }
    closeQuietly(gatewayApi);
    closeQuietly(discovery);
    closeQuietly(extProcServer);
    closeQuietly(poolPickers);
    if (eppChannel != null) {
      eppChannel.shutdownNow();
    }
    director.close();
    scraper.close();
    if (modelLister != null) {
      modelLister.close();
    }
    try {
      if (gateway != null) {
        gateway.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      }
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.atWarn().addKeyValue("error", e.toString()).log("shutdown incomplete");
    }
    for (Plugin p : setup.plugins().values()) {
      if (p instanceof AutoCloseable c) {
        closeQuietly(c);
      }
    }
    learner.shutdownNow();
    flowExecutor.shutdownNow();
    if (accessLog != null) {
      accessLog.close();
    }
    tracing.close();
  }

  private static void closeQuietly(AutoCloseable c) {
    if (c != null) {
      try {
        c.close();
      } catch (Exception e) {
        LOG.atWarn().addKeyValue("component", c.getClass().getSimpleName()).addKeyValue("error", e.toString())
            .log("close failed");
      }
    }
  }
}
