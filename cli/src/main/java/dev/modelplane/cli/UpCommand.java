package dev.modelplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.cli.devcluster.DevClusterProcess;
import dev.modelplane.cli.user.ManifestCheck;
import dev.modelplane.cli.user.ManifestRollout;
import dev.modelplane.common.logging.LogFormat;
import dev.modelplane.common.logging.LogSetup;
import dev.modelplane.common.text.GoDuration;
import dev.modelplane.operator.ome.modelagent.ModelAgentSettings;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code modelplane up}: the whole platform on this machine — the dev cluster with live model-server pods, the
 * operator, and the router serving every InferencePool — then a manifest applied and followed until it answers.
 */
@Command(name = "up", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Starts the dev cluster (live model-server pods backed by simulators), the operator and the "
        + "router, applies a manifest (default: deploy/samples/quickstart.yaml) and waits until it answers; ends "
        + "with the OpenAI base URL and a curl line. Running it again reuses what runs. A port given as 0 is "
        + "picked free; the ports used are printed and written to platform.json in the state directory.",
        "Stop everything with: modelplane down"})
final class UpCommand implements Callable<Integer> {
  static final String QUICKSTART = "deploy/samples/quickstart.yaml";
  /** The operator's flag naming the router that InferencePool benchmarks go through. */
  static final String BENCHMARK_ROUTER_URL = "--benchmark-router-url";

  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = {"-f", "--filename"}, paramLabel = "FILE",
      description = "Manifest to apply ('-' for stdin); repeatable. Default: the quickstart sample.")
  List<String> files = new ArrayList<>();

  @Option(names = "--no-apply", description = "Start the platform only; apply nothing.")
  boolean noApply;

  @Option(names = "--state-dir", paramLabel = "DIR",
      description = "State, kubeconfig and logs (default: ~/.cache/modelplane/dev-cluster).")
  Path stateDirOption;

  @Option(names = "--host", defaultValue = "127.0.0.1",
      description = "Router listen address (default: ${DEFAULT-VALUE}).")
  String host;

  @Option(names = "--port", defaultValue = "8080",
      description = "OpenAI gateway port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--grpc-port", defaultValue = "9002",
      description = "Envoy ext_proc port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int grpcPort;

  @Option(names = "--grpc-health-port", defaultValue = "9003",
      description = "gRPC health port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int grpcHealthPort;

  @Option(names = "--metrics-port", defaultValue = "9090",
      description = "Router metrics port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int metricsPort;

  @Option(names = "--operator-port", defaultValue = "8081",
      description = "Operator health and metrics port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int operatorPort;

  @Option(names = "--cpu-nodes", defaultValue = "1",
      description = "Fake CPU nodes of a new cluster (default: ${DEFAULT-VALUE}).")
  int cpuNodes;

  @Option(names = "--gpu-nodes", defaultValue = "4",
      description = "Fake GPU nodes of a new cluster (default: ${DEFAULT-VALUE}).")
  int gpuNodes;

  @Option(names = "--gpus-per-node", defaultValue = "8",
      description = "GPUs per fake GPU node (default: ${DEFAULT-VALUE}).")
  int gpusPerNode;

  @Option(names = "--timeout", defaultValue = "10m", converter = GoDuration.NonNegativeOrIso8601Converter.class,
      description = "How long to wait for the cluster and then for the manifest, a Go duration such as 90s or 1h "
          + "(default: ${DEFAULT-VALUE}; ISO-8601 such as PT10M is still read but deprecated).")
  Duration timeout;

  @CommandLine.Mixin
  Monitoring.Options monitoring = new Monitoring.Options();

  @Option(names = "--tracing-endpoint", paramLabel = "URL", description = "Export traces over OTLP/HTTP to this "
      + "collector (e.g. http://127.0.0.1:4318) from the router, the operator and the simulators, every request "
      + "sampled. A cluster or platform already running keeps how it was started.")
  String tracingEndpoint;

  private PrintWriter out() {
    return spec.commandLine().getOut();
  }

  private PrintWriter err() {
    return spec.commandLine().getErr();
  }

  @Override
  public Integer call() throws Exception {
    Instant started = Instant.now();
    LogSetup.configure(LogFormat.KEYVALUE, "warn,io.fabric8=error");
    Path dir = DevClusterProcess.stateDir(stateDirOption);
    List<byte[]> manifests = manifests();
    step(1, "dev cluster (control plane, fake GPU nodes, live model-server pods)");
    UpTracing tracing = UpTracing.of(tracingEndpoint);
    boolean clusterRan = DevClusterProcess.readState(dir).isPresent();
    Optional<DevClusterProcess.State> cluster = DevClusterProcess.startOrReuse(dir,
        new DevClusterProcess.Shape(cpuNodes, gpuNodes, gpusPerNode, true), timeout, Main.class.getName(), out(),
        err(), tracing.env(null));
    if (cluster.isEmpty()) {
      return 1;
    }
    if (clusterRan) {
      tracing.noteReused(dir, true, out());
    } else {
      tracing.recordStarted(dir, true);
    }
    step(2, "operator and router");
    PlatformState platform = platform(dir, cluster.get());
    if (platform == null) {
      return 1;
    }
    Optional<Monitoring.State> prometheus = monitoring.enabled ? Monitoring.startOrReuse(monitoring, dir,
        cluster.get().kubeconfig(), platform, out(), err()) : Optional.empty();
    if (monitoring.enabled && prometheus.isEmpty()) {
      return 1;
    }
    Config config = Config.fromKubeconfig(Files.readString(Path.of(cluster.get().kubeconfig())));
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      out().println("  runtimes: " + String.join(", ", BundledRuntimes.install(client))
          + " (ClusterServingRuntimes for OME InferenceServices)");
      List<HasMetadata> applied = new ArrayList<>();
      if (!noApply) {
        step(3, "apply " + (files.isEmpty() ? QUICKSTART : String.join(", ", files)));
        for (byte[] manifest : manifests) {
          applied.addAll(ManifestRollout.apply(client, new ByteArrayInputStream(manifest)));
        }
        step(4, "wait until ready");
        if (!ManifestRollout.waitReady(client, applied, timeout, out())) {
          err().println("up: not ready after " + GoDuration.format(timeout) + "; look with: KUBECONFIG="
              + cluster.get().kubeconfig() + " kubectl get modelplane,pods -A (operator log: "
              + dir.resolve("operator.log") + ")");
          return 1;
        }
      }
      boolean pool = !EndpointCheck.poolsOf(client, applied).isEmpty();
      step(5, pool ? "check the endpoint" : "check the endpoint: skipped, no InferencePool (applied, or owned by "
          + "what was applied) for the router to serve");
      Optional<EndpointCheck.Answer> answer = pool ? new EndpointCheck(platform.host(), platform.port())
          .firstAnswer(client, applied, Duration.ofSeconds(90)) : Optional.empty();
      summary(cluster.get(), platform, answer, pool, dir, Duration.between(started, Instant.now()));
      prometheus.ifPresent(p -> out().println("metrics:  " + p.url() + " (Prometheus; dashboards and alerts in "
          + "deploy/monitoring)"));
      return !pool || answer.isPresent() ? 0 : 1;
    }
  }

  private List<byte[]> manifests() throws IOException {
    if (noApply) {
      return List.of();
    }
    List<byte[]> out = new ArrayList<>();
    if (files.isEmpty()) {
      String root = System.getProperty("modelplane.repo.root");
      Path quickstart = root == null ? null : Path.of(root, QUICKSTART);
      if (quickstart != null && Files.exists(quickstart)) {
        out.add(Files.readAllBytes(quickstart));
      } else {
        try (InputStream in = UpCommand.class.getResourceAsStream("quickstart.yaml")) {
          if (in == null) {
            throw new IOException("the quickstart manifest is missing; pass -f FILE");
          }
          out.add(in.readAllBytes());
        }
      }
    }
    for (String f : files) {
      if ("-".equals(f)) {
        out.add(ManifestCheck.checked("<stdin>", ManifestRollout.read(System.in)));
      } else if (!Files.isRegularFile(Path.of(f))) {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "-f " + f + ": no such file");
      } else {
        out.add(ManifestCheck.checked(f, Files.readAllBytes(Path.of(f))));
      }
    }
    return out;
  }

  private void step(int n, String what) {
    out().println("[" + n + "/5] " + what);
    out().flush();
  }

  /** The operator and router of this cluster: the running ones, or new ones. */
  private PlatformState platform(Path dir, DevClusterProcess.State cluster) throws IOException, InterruptedException {
    Optional<PlatformState> existing = PlatformState.read(dir);
    if (existing.isPresent() && existing.get().runningAgainst(cluster.pid())) {
      out().println("  operator (pid " + existing.get().operatorPid() + ") and router (pid "
          + existing.get().routerPid() + ") already run");
      UpTracing.of(tracingEndpoint).noteReused(dir, false, out());
      existing.get().ports().ifPresent(p -> out().println("  ports: " + p.describe()));
      return existing.get();
    }
    existing.ifPresent(PlatformState::stop);
    UpPorts requested = new UpPorts(port, grpcPort, grpcHealthPort, metricsPort, operatorPort);
    Optional<Integer> busy = requested.busy(host);
    if (busy.isPresent()) {
      err().println("up: port " + busy.get() + " on " + host + " is in use; choose others with " + UpPorts.FLAGS
          + " (0 picks a free one)");
      return null;
    }
    // A picked port can still be taken before the process binds it: then that process exits, and up picks again.
    for (int attempt = 1; ; attempt++) {
      UpPorts ports = requested.resolve(host);
      Launch launch = launch(dir, cluster, ports);
      if (launch.state() != null) {
        return launch.state();
      }
      if (!launch.exited() || !requested.picksAny() || attempt == 3) {
        err().println("up: the operator or the router did not start; see " + dir.resolve("operator.log") + " and "
            + dir.resolve("router.log"));
        return null;
      }
      out().println("  the operator or the router exited at start (ports " + ports.describe() + "); picking again");
    }
  }

  /**
   * What starting the operator and the router came to: the state when both are ready, else null and whether one of
   * them exited (rather than not becoming ready in time).
   */
  private record Launch(PlatformState state, boolean exited) {
  }

  private static Map<String, String> withTracing(Map<String, String> env, Map<String, String> tracing) {
    Map<String, String> all = new java.util.HashMap<>(env);
    all.putAll(tracing);
    return all;
  }

  private Launch launch(Path dir, DevClusterProcess.State cluster, UpPorts ports)
      throws IOException, InterruptedException {
    Map<String, String> env = Map.of("KUBECONFIG", cluster.kubeconfig());
    List<String> operator = new ArrayList<>(DevClusterProcess.javaCommand());
    operator.addAll(List.of(Main.class.getName(), "operator", "--kubeconfig", cluster.kubeconfig(),
        "--no-leader-elect", "--http-port", Integer.toString(ports.operator()), "--bind-address", "127.0.0.1",
        "--no-model-inspection", "--model-agent-namespace", ModelAgentSettings.DEFAULT_NAMESPACE));
    operator.addAll(benchmarkRouterArgs(host, ports.gateway()));
    UpTracing tracing = UpTracing.of(tracingEndpoint);
    tracing.recordStarted(dir, false);
    Process op = DevClusterProcess.startDetached(operator, dir.resolve("operator.log"),
        withTracing(env, tracing.env("modelplane-operator")));
    List<String> router = new ArrayList<>(DevClusterProcess.javaCommand());
    router.addAll(List.of(Main.class.getName(), "router", "--all-pools", "--pool-namespace", "*", "--host", host,
        "--port", Integer.toString(ports.gateway()), "--grpc-port", Integer.toString(ports.grpc()),
        "--grpc-health-port", Integer.toString(ports.grpcHealth()), "--metrics-port",
        Integer.toString(ports.metrics()), "--gateway-controller-name",
        dev.modelplane.router.gatewayapi.GatewayController.DEFAULT_CONTROLLER_NAME,
        // The dev cluster runs model servers only, no endpoint-picker pods: the gateway picks for every pool.
        "--endpoint-picker-refs=in-process"));
    router.addAll(tracing.routerArgs());
    Process rt = DevClusterProcess.startDetached(router, dir.resolve("router.log"),
        withTracing(env, tracing.env("modelplane-router")));
    PlatformState state = new PlatformState(cluster.pid(), op.pid(), rt.pid(), host, ports);
    state.write(dir);
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    boolean up = waitUntil(Duration.ofSeconds(120), () -> ok(http, "http://127.0.0.1:" + ports.operator() + "/readyz")
        && ok(http, "http://" + hostForUrl(host) + ":" + ports.gateway() + "/health"), op, rt);
    if (!up) {
      boolean exited = !op.isAlive() || !rt.isAlive();
      state.stop();
      return new Launch(null, exited);
    }
    out().println("  operator (pid " + op.pid() + ", log " + dir.resolve("operator.log") + ")");
    out().println("  router (pid " + rt.pid() + ", log " + dir.resolve("router.log") + ")");
    out().println("  ports: " + ports.describe());
    return new Launch(state, false);
  }

  /**
   * The operator's BenchmarkJob setting for this platform: InferencePool endpoints are benchmarked through the
   * router {@code up} starts. Empty for an operator without the setting.
   */
  static List<String> benchmarkRouterArgs(String host, int port) {
    CommandLine.Model.CommandSpec operator = new CommandLine(new OperatorCommand()).getCommandSpec();
    return operator.findOption(BENCHMARK_ROUTER_URL) == null ? List.of()
        : List.of(BENCHMARK_ROUTER_URL, "http://" + hostForUrl(host) + ":" + port);
  }

  private static boolean waitUntil(Duration limit, BooleanSupplier condition, Process... processes)
      throws InterruptedException {
    Instant deadline = Instant.now().plus(limit);
    while (Instant.now().isBefore(deadline)) {
      if (condition.getAsBoolean()) {
        return true;
      }
      for (Process p : processes) {
        if (!p.isAlive()) {
          return false;
        }
      }
      Thread.sleep(250);
    }
    return false;
  }

  static boolean ok(HttpClient http, String url) {
    try {
      return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  static String hostForUrl(String host) {
    if ("0.0.0.0".equals(host) || "::".equals(host)) {
      return "127.0.0.1";
    }
    return host.contains(":") ? "[" + host + "]" : host;
  }

  private void summary(DevClusterProcess.State cluster, PlatformState platform, Optional<EndpointCheck.Answer> answer,
      boolean checked, Path dir, Duration took) {
    PrintWriter out = out();
    String base = "http://" + hostForUrl(platform.host()) + ":" + platform.port() + "/v1";
    out.println();
    if (answer.isPresent()) {
      EndpointCheck.Answer a = answer.get();
      out.println("modelplane is up in " + took.toSeconds() + " s. OpenAI base URL: " + base);
      out.println("  model " + a.model() + " in pool " + a.pool() + " answered: " + a.text());
      out.println();
      out.println(a.curl(base));
    } else if (!checked) {
      out.println("modelplane is up in " + took.toSeconds() + " s. OpenAI base URL: " + base + (noApply
          ? " (no manifest applied: modelplane up -f FILE)" : " (add an InferencePool to route to what was applied)"));
    } else {
      err().println("up: the objects are ready but no request through the router succeeded; see "
          + dir.resolve("router.log"));
    }
    out.println();
    out.println("live:     http://" + hostForUrl(platform.host()) + ":" + platform.metricsPort() + "/ui");
    out.println("kubectl:  export KUBECONFIG=" + cluster.kubeconfig());
    out.println("logs:     " + dir + " (operator.log, router.log, work/pods/<namespace>/<pod>/<container>.log)");
    out.println("stop:     ./modelplane down" + (dir.equals(DevClusterProcess.stateDir(null)) ? ""
        : " --state-dir " + dir));
    out.flush();
  }

  /** Reads a JSON body, or null. */
  static JsonNode json(String body) {
    try {
      return DevClusterCommand.JSON.readTree(body);
    } catch (IOException e) {
      return null;
    }
  }
}
