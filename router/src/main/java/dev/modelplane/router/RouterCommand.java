package dev.modelplane.router;

import dev.modelplane.common.tracing.Tracing;
import dev.modelplane.common.tracing.TracingSettings;
import dev.modelplane.common.logging.LogOptions;
import dev.modelplane.common.text.GoDuration;
import dev.modelplane.common.tokenizer.TokenizerCache;
import dev.modelplane.router.config.ConfigLoader;
import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.extproc.GrpcTls;
import dev.modelplane.router.metrics.MetricsAccess;
import dev.modelplane.router.plugin.PromptTokenizer;
import dev.modelplane.router.plugin.Quantities;
import dev.modelplane.router.pool.KubernetesDiscovery;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.request.PathPolicy;
import dev.modelplane.router.request.RequestLimits;
import dev.modelplane.router.scheduling.RequestJson;
import dev.modelplane.router.tokenize.ModelTokenizers;
import dev.modelplane.router.gateway.GatewayOptions;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code modelplane router}: the endpoint picker and inference gateway. */
@Command(name = "router", mixinStandardHelpOptions = true,
    description = {"Runs the endpoint picker (Envoy ext_proc, Endpoint Picker Protocol) and the OpenAI-compatible "
        + "inference gateway.",
        "Endpoints come from --endpoints (static mode) or from InferencePools in Kubernetes (--pool, --all-pools)."})
public final class RouterCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(RouterCommand.class);

  @Option(names = "--host", defaultValue = "127.0.0.1",
      description = "Address every listener binds (use 0.0.0.0 in a pod). Default: ${DEFAULT-VALUE}.")
  String host;

  @Option(names = "--port", defaultValue = "8080",
      description = "Port of the OpenAI-compatible gateway; -1 turns it off. Default: ${DEFAULT-VALUE}.")
  int port;

  @Option(names = "--grpc-port", defaultValue = "9002",
      description = "Port of the ext_proc server (GIE: 9002); -1 turns it off. Default: ${DEFAULT-VALUE}.")
  int grpcPort;

  @Option(names = "--grpc-health-port", defaultValue = "9003",
      description = "Port of the gRPC health service (GIE: 9003); -1 turns it off. Default: ${DEFAULT-VALUE}.")
  int grpcHealthPort;

  @Option(names = "--metrics-port", defaultValue = "9090",
      description = "Port of a separate Prometheus endpoint (GIE: 9090); -1 turns it off (the gateway also serves "
          + "/metrics). Default: ${DEFAULT-VALUE}.")
  int metricsPort;

  @Option(names = "--endpoints", description = "Static mode: model servers as host:port,host:port,…")
  String endpoints;

  @Option(names = {"--pool", "--pool-name"}, description = "InferencePool to serve, name or namespace/name; "
      + "repeatable (one router, many pools). Requests choose a pool with the header x-modelplane-inference-pool "
      + "or the path prefix /inference-pools/<namespace>/<name>/; the first is the default. --pool-name is GIE's "
      + "name for it.")
  List<String> pools = new ArrayList<>();

  @Option(names = "--pool-namespace", description = "Namespace of --pool names without one, and of --all-pools. "
      + "Default: the kubeconfig's namespace.")
  String poolNamespace;

  @Option(names = "--all-pools", description = "Serve every InferencePool of --pool-namespace (or of all namespaces "
      + "with --pool-namespace='*').")
  boolean allPools;

  @Option(names = {"--config", "--config-file"}, description = "EndpointPickerConfig YAML file (GIE format; "
      + "--config-file is GIE's name). Default: GIE's default (queue 2, kv-cache 2, prefix-cache 3, max-score "
      + "picker).")
  Path config;

  @Option(names = "--config-text", description = "EndpointPickerConfig YAML given inline (GIE's flag of the same "
      + "name); not together with --config.")
  String configText;

  @Option(names = "--refresh-metrics-interval", defaultValue = "50ms",
      converter = GoDuration.NonNegativeConverter.class,
      description = "How often each endpoint's /metrics is scraped. Default: ${DEFAULT-VALUE}.")
  Duration refreshMetricsInterval;

  @Option(names = "--metrics-staleness-threshold", defaultValue = "2s",
      converter = GoDuration.NonNegativeConverter.class,
      description = "Metrics older than this are left out of the pool gauges. Default: ${DEFAULT-VALUE}.")
  Duration metricsStaleness;

  @Option(names = "--model-server-metrics-port", defaultValue = "0",
      description = "Scrape this port instead of each endpoint's port (deprecated in GIE).")
  int modelServerMetricsPort;

  @Option(names = "--model-server-metrics-path", defaultValue = "/metrics",
      description = "Metrics path on the model servers. Default: ${DEFAULT-VALUE}.")
  String modelServerMetricsPath;

  @Option(names = "--max-body-bytes", defaultValue = "8Mi",
      description = "Request bodies above this get 413 (gateway and ext_proc). Default: ${DEFAULT-VALUE}.")
  String maxBody;

  @Option(names = "--max-inflight-request-bytes", defaultValue = "auto",
      description = "Request body bytes held at once across all requests (being received, queued, in progress); "
          + "a request that would go over gets 429 with Retry-After. auto = a quarter of the maximum heap. "
          + "Default: ${DEFAULT-VALUE}.")
  String maxInflight;

  @Option(names = "--max-request-json-depth", defaultValue = "128",
      description = "Deepest nesting of arrays and objects in a request body (400 above). Default: ${DEFAULT-VALUE}.")
  int maxJsonDepth;

  @Option(names = "--max-request-json-elements", defaultValue = "4194304",
      description = "Array elements plus object members in a request body, counted over the whole body (400 above); "
          + "the default fits any body of 8 MiB. Default: ${DEFAULT-VALUE}.")
  long maxJsonElements;

  @Option(names = "--max-request-json-string-length", defaultValue = "8Mi",
      description = "Longest string in a request body, in characters (400 above). Default: ${DEFAULT-VALUE}.")
  String maxJsonString;

  @Option(names = "--allowed-path-prefix", split = ",",
      description = "A path prefix forwarded to model servers besides /v1/ and vLLM's inference paths outside it "
          + "(/tokenize, /detokenize, /rerank, /v2/rerank, /score, /pooling, /classify, /inference/v1/generate); "
          + "every other path is answered 404. A prefix ending with / allows what lies under it, one without also "
          + "that path. The LoRA adapter load and unload endpoints stay refused. Repeatable or comma-separated.")
  List<String> allowedPathPrefixes = new ArrayList<>();

  @Option(names = "--max-attempts", defaultValue = "3",
      description = "Endpoints tried when the upstream fails before the first response byte. Default: "
          + "${DEFAULT-VALUE}.")
  int maxAttempts;

  @Option(names = "--upstream-response-timeout", defaultValue = "10m",
      converter = GoDuration.NonNegativeConverter.class,
      description = "Gateway: longest wait from sending a request to a model server until its first response body "
          + "byte (a non-streamed completion's whole generation); then the request is retried elsewhere, or "
          + "answered 504. 0 = none. Default: ${DEFAULT-VALUE}.")
  Duration upstreamResponseTimeout;

  @Option(names = "--upstream-idle-timeout", defaultValue = "2m", converter = GoDuration.NonNegativeConverter.class,
      description = "Gateway: longest pause between two response body chunks once the response has begun; then "
          + "the response is ended with an error (an error event for streams). 0 = none. Default: ${DEFAULT-VALUE}.")
  Duration upstreamIdleTimeout;

  @Option(names = "--client-idle-timeout", defaultValue = "60s", converter = GoDuration.NonNegativeConverter.class,
      description = "Gateway: a client connection with no request in progress (or sending its request head too "
          + "slowly), or leaving a streamed response unread, is closed after this. 0 = none. "
          + "Default: ${DEFAULT-VALUE}.")
  Duration clientIdleTimeout;

  @Option(names = "--client-request-timeout", defaultValue = "60s", converter = GoDuration.NonNegativeConverter.class,
      description = "Gateway: a request body must arrive within this of its head (408 otherwise). 0 = none. "
          + "Default: ${DEFAULT-VALUE}.")
  Duration clientRequestTimeout;

  @Option(names = "--max-header-bytes", defaultValue = "64Ki",
      description = "Gateway: largest request head (431 above). Default: ${DEFAULT-VALUE}.")
  String maxHeaderBytes;

  @Option(names = "--secure-serving", arity = "0..1", fallbackValue = "true", defaultValue = "true",
      description = "Serve ext_proc over TLS (GIE's flag): with --cert-path's certificate, else a self-signed one "
          + "made at start. --secure-serving=false serves plaintext. Default: ${DEFAULT-VALUE}.")
  boolean secureServing;

  @Option(names = "--cert-path", description = "Directory holding tls.crt and tls.key (PEM) for ext_proc's TLS "
      + "(GIE's flag). Default: a self-signed certificate.")
  Path certPath;

  @Option(names = "--enable-cert-reload", arity = "0..1", fallbackValue = "true", defaultValue = "false",
      description = "Re-read --cert-path's files when they change (GIE's flag).")
  boolean enableCertReload;

  @Option(names = "--epp-tls", arity = "0..1", fallbackValue = "true", defaultValue = "true",
      description = "Speak TLS to external pickers, --epp's and the pools' own (GIE's EPP serves TLS by default); "
          + "--epp-tls=false for plaintext. Default: ${DEFAULT-VALUE}.")
  boolean eppTls;

  @Option(names = "--epp-ca-file", description = "PEM CA bundle to verify external pickers' certificates "
      + "with. Default: the JDK's trust store.")
  Path eppCaFile;

  @Option(names = "--epp-insecure-skip-verify", description = "Accept any certificate from an external picker "
      + "(a self-signed one cannot be verified; Envoy-based gateways skip it the same way).")
  boolean eppInsecureSkipVerify;

  @Option(names = "--event-loops", defaultValue = "0",
      description = "Gateway event loops; 0 = one per CPU.")
  int eventLoops;

  @Option(names = "--no-access-log", description = "Do not log a line per request (event=access).")
  boolean noAccessLog;

  @Option(names = "--epp", description = "Client mode: delegate picking to this external endpoint picker "
      + "(host:port of its ext_proc service).")
  String epp;

  @Option(names = "--endpoint-picker-refs", defaultValue = "follow",
      description = "What the gateway does with an InferencePool's endpointPickerRef: follow (hand the pick step to "
          + "the picker Service it names, over ext_proc with the --epp-tls settings, unless that Service is this "
          + "router; reads Services and EndpointSlices) or in-process (ignore it, this router picks for every pool). "
          + "--epp wins over both. Default: ${DEFAULT-VALUE}.")
  String endpointPickerRefs;

  @Option(names = "--failure-mode", defaultValue = "FailClose",
      description = "Client mode: FailOpen (pick an endpoint ourselves) or FailClose (503) when the external picker "
          + "fails. Default: ${DEFAULT-VALUE}.")
  String failureMode;

  @Option(names = "--gateway-controller-name", description = "Be the Gateway API implementation of the "
      + "GatewayClasses whose spec.controllerName is this (modelplane's: "
      + dev.modelplane.router.gatewayapi.GatewayController.DEFAULT_CONTROLLER_NAME + "): listen on their Gateways' "
      + "listener ports, route by the HTTPRoutes attached to them and write their status. Needs --all-pools or "
      + "--pool and the gateway. Off by default.")
  String gatewayControllerName;

  @Option(names = "--disable-endpoint-subset-filter", description = "Ignore the proxy's subset hint.")
  boolean disableSubsetFilter;

  @Option(names = "--tokenizer", description = "The tokenizer of a model, for precise-prefix-cache-scorer: "
      + "MODEL=SOURCE, or SOURCE for every model without its own; SOURCE is a model directory, a tokenizer.json or "
      + "'word' (the simulator's). Repeatable.")
  List<String> tokenizers = new ArrayList<>();

  @Option(names = "--debug", description = "Debug logging of the router (adds dev.modelplane.router=debug to "
      + "--log-level).")
  boolean debug;

  @Mixin
  LogOptions logging = new LogOptions();

  @Mixin
  GieFlags gie = new GieFlags();

  /** Why the TLS flags do not fit together, or null. */
  String checkTls() {
    if (certPath != null && !secureServing) {
      return "--cert-path needs --secure-serving (it is off)";
    }
    if (enableCertReload && certPath == null) {
      return "--enable-cert-reload needs --cert-path (a self-signed certificate is never reloaded)";
    }
    if (certPath != null && (!Files.isReadable(certPath.resolve("tls.crt"))
        || !Files.isReadable(certPath.resolve("tls.key")))) {
      return "--cert-path " + certPath + " must hold readable tls.crt and tls.key";
    }
    if (eppCaFile != null && eppInsecureSkipVerify) {
      return "give --epp-ca-file or --epp-insecure-skip-verify, not both";
    }
    if ((eppCaFile != null || eppInsecureSkipVerify) && !eppTls) {
      return "--epp-ca-file and --epp-insecure-skip-verify need --epp-tls (it is off)";
    }
    if (eppCaFile != null && !Files.isReadable(eppCaFile)) {
      return "--epp-ca-file " + eppCaFile + " is not readable";
    }
    return null;
  }

  @Override
  public Integer call() throws Exception {
    String refused = gie.check();
    if (refused != null) {
      System.err.println("router: " + refused);
      return 2;
    }
    if (gie.logFormat() != null) {
      logging.format(gie.logFormat());
    }
    if (debug) {
      logging.apply("dev.modelplane.router", Level.DEBUG);
    } else {
      logging.apply();
    }
    gie.announce(!pools.isEmpty() || allPools);
    TracingSettings tracingSettings;
    try {
      tracingSettings = gie.tracingSettings(System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println("router: --tracing: " + e.getMessage());
      return 2;
    }
    if (endpoints == null && pools.isEmpty() && !allPools) {
      System.err.println("router: give --endpoints host:port,… (static mode) or --pool/--all-pools (Kubernetes)");
      return 2;
    }
    PromptTokenizer tokenizer;
    RouterOptions.PickerRefs pickerRefs;
    try {
      pickerRefs = RouterOptions.PickerRefs.parse(endpointPickerRefs);
      tokenizer = ModelTokenizers.parse(tokenizers, TokenizerCache.shared());
    } catch (IllegalArgumentException e) {
      System.err.println("router: " + e.getMessage());
      return 2;
    }
    if (!failureMode.equals("FailOpen") && !failureMode.equals("FailClose")) {
      System.err.println("router: --failure-mode must be FailOpen or FailClose");
      return 2;
    }
    if (config != null && configText != null) {
      System.err.println("router: give --config FILE or --config-text YAML, not both");
      return 2;
    }
    String invalid = checkTls();
    if (invalid != null) {
      System.err.println("router: " + invalid);
      return 2;
    }
    if (gatewayControllerName != null && (port < 0 || (pools.isEmpty() && !allPools))) {
      System.err.println("router: --gateway-controller-name needs the gateway (--port) and Kubernetes mode "
          + "(--pool or --all-pools)");
      return 2;
    }
    String yaml = config != null ? Files.readString(config) : configText;
    if (yaml != null) {
      ConfigLoader.parse(yaml); // fail fast with the config's own message
    }
    GatewayOptions defaults = GatewayOptions.defaults();
    long maxBodyBytes = Quantities.quantity(maxBody);
    RequestLimits requestLimits;
    try {
      long inflight = "auto".equals(maxInflight) ? RequestLimits.defaultMaxInflightBytes(maxBodyBytes)
          : Quantities.quantity(maxInflight);
      requestLimits = new RequestLimits(maxBodyBytes, new RequestJson.Limits(maxJsonDepth, maxJsonElements,
          (int) Math.min(Integer.MAX_VALUE, Quantities.quantity(maxJsonString))), inflight,
          PathPolicy.defaults().withAllowed(allowedPathPrefixes));
    } catch (IllegalArgumentException e) {
      System.err.println("router: " + e.getMessage());
      return 2;
    }
    GatewayOptions.Limits limits = defaults.limits().withUpstream(upstreamResponseTimeout, upstreamIdleTimeout)
        .withClient(clientIdleTimeout, clientRequestTimeout)
        .withMaxHeaderBytes((int) Math.min(Integer.MAX_VALUE, Quantities.quantity(maxHeaderBytes)));
    GatewayOptions gateway = port < 0 ? null : new GatewayOptions(host, port, maxBodyBytes,
        maxAttempts, defaults.connectTimeout(), defaults.unreachableCooldown(), defaults.maxConnectionsPerEndpoint(),
        eventLoops > 0 ? eventLoops : defaults.eventLoops(), !noAccessLog, limits);
    MetricsScraper.Settings scrape = new MetricsScraper.Settings(refreshMetricsInterval,
        Duration.ofSeconds(1), modelServerMetricsPath, modelServerMetricsPort);
    KubernetesClient client = null;
    List<PoolKey> poolKeys = new ArrayList<>();
    String namespace = poolNamespace;
    if (!pools.isEmpty() || allPools) {
      // Few retries per request: discovery's informers retry on their own, and a refused connection should reach
      // the log and the 503s' reason within a second rather than after fabric8's ten backed-off retries.
      io.fabric8.kubernetes.client.Config kubeConfig = io.fabric8.kubernetes.client.Config.autoConfigure(null);
      kubeConfig.setRequestRetryBackoffLimit(2);
      client = new KubernetesClientBuilder().withConfig(kubeConfig).build();
      if (namespace == null) {
        namespace = client.getNamespace() == null ? "default" : client.getNamespace();
      }
      for (String p : pools) {
        poolKeys.add(PoolKey.parse(p, namespace));
      }
    }
    RouterOptions options = new RouterOptions(host, gateway, grpcPort, grpcHealthPort, metricsPort, endpoints,
        poolKeys, allPools ? namespace : null, yaml, scrape, metricsStaleness, epp,
        failureMode.equals("FailOpen"), disableSubsetFilter,
        new GrpcTls.ServerTls(secureServing, certPath, enableCertReload),
        new GrpcTls.ClientTls(eppTls, eppCaFile, eppInsecureSkipVerify), requestLimits, pickerRefs);
    if (gie.metricsAuth() && client == null) {
      System.err.println("router: --metrics-endpoint-auth=true needs the Kubernetes API to check tokens: serve pools "
          + "(--pool, --pool-name, --all-pools) or pass --metrics-endpoint-auth=false");
      return 2;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Router router = new Router(options, tokenizer);
    router.tracing(Tracing.start(tracingSettings));
    if (gie.metricsAuth()) {
      router.protectMetrics(MetricsAccess.kubernetes(client, Duration.ofMinutes(1)));
    }
    KubernetesClient kube = client;
    Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> {
      router.close();
      if (kube != null) {
        kube.close();
      }
      stopped.countDown();
    }));
    KubernetesDiscovery discovery = null;
    if (client != null) {
      discovery = router.discover(client, new KubernetesDiscovery.Selection(poolKeys,
          allPools && "*".equals(namespace) ? null : namespace), Duration.ofMillis(500));
    }
    router.start();
    if (discovery != null) {
      discovery.start(); // returns at once: an unreachable Kubernetes API is waited for, with 503 meanwhile
    }
    if (gatewayControllerName != null) {
      router.serveGatewayApi(client, gatewayControllerName);
    }
    LOG.atInfo().addKeyValue("gateway_port", router.gatewayPort()).addKeyValue("grpc_port", router.extProcPort())
        .addKeyValue("metrics_port", router.metricsPort()).log("router ready");
    stopped.await();
    return 0;
  }
}
