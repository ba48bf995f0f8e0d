package dev.modelplane.cli;

import dev.modelplane.common.logging.LogOptions;
import dev.modelplane.common.tracing.Tracing;
import dev.modelplane.common.tracing.TracingSettings;
import dev.modelplane.operator.app.ReconcileSpans;
import dev.modelplane.common.text.GoDuration;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.app.AccessCheck;
import dev.modelplane.operator.app.HealthServer;
import dev.modelplane.operator.app.LeaderLease;
import dev.modelplane.operator.app.ModelplaneOperator;
import dev.modelplane.operator.modelsource.InspectionPolicy;
import dev.modelplane.operator.ome.storage.ModelStorageSettings;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code modelplane operator}: runs the controllers against the current kubeconfig or the in-cluster config. */
@Command(
    name = "operator",
    mixinStandardHelpOptions = true,
    description = {"Runs the modelplane controllers (LLMKube Model and InferenceService, OME BaseModel and "
        + "ClusterBaseModel) against the cluster of the "
        + "current kubeconfig, or the in-cluster service account. Serves /healthz, /readyz and /metrics "
        + "(Prometheus) on --http-port and logs one key=value (or JSON) line per event to stderr."})
final class OperatorCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(OperatorCommand.class);

  @Option(names = "--tracing", description = "Export a span per reconcile over OTLP (HTTP, or gRPC with "
      + "OTEL_EXPORTER_OTLP_PROTOCOL=grpc) as the OTEL_* variables say; "
      + "also on when OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set.")
  boolean tracing;

  @Option(names = "--kubeconfig", description = "Kubeconfig file; default: $KUBECONFIG, ~/.kube/config, in-cluster.")
  Path kubeconfig;

  @Option(names = "--namespaces", split = ",", description = "Namespaces to watch; default: all.")
  List<String> namespaces = List.of();

  @Option(names = "--leader-elect", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Elect a leader through a Lease, so several replicas can run (default: on).")
  boolean leaderElect;

  @Option(names = "--lease-name", defaultValue = "modelplane-operator", description = "Name of the leader Lease.")
  String leaseName;

  @Option(names = "--lease-namespace", description = "Namespace of the leader Lease; default: the operator's own.")
  String leaseNamespace;

  @Option(names = "--lease-duration", defaultValue = "15s", converter = GoDuration.Converter.class,
      description = "How long followers wait after the leader's last renewal before taking over (default: 15s).")
  Duration leaseDuration;

  @Option(names = "--renew-deadline", defaultValue = "10s", converter = GoDuration.Converter.class,
      description = "How long the leader retries renewing before it stops leading and exits (default: 10s).")
  Duration renewDeadline;

  @Option(names = "--retry-period", defaultValue = "2s", converter = GoDuration.Converter.class,
      description = "Pause between attempts to acquire or renew the Lease (default: 2s).")
  Duration retryPeriod;

  @Option(names = "--model-agent-namespace",
      description = "Namespace of the OME model agents' per-node status ConfigMaps; default: the operator's own.")
  String modelAgentNamespace;

  @Option(names = "--model-agent-roots", split = ",", paramLabel = "DIR",
      defaultValue = ModelStorageSettings.DEFAULT_ROOT,
      description = "The model agents' --models-root directories as model specs name them: a BaseModel's node "
          + "directory must lie inside <root>/<namespace>/ (without spec.storage.path: <first root>/<namespace>/"
          + "<name>), a ClusterBaseModel's inside a root (default: " + ModelStorageSettings.DEFAULT_ROOT + ").")
  List<String> modelAgentRoots;

  @Option(names = "--model-agent-timeout", defaultValue = "10m", converter = GoDuration.Converter.class,
      description = "How long a deleted BaseModel waits for the agent of a node that is not Ready before it stops "
          + "waiting for that node (default: 10m).")
  Duration modelAgentTimeout;

  @Option(names = "--http-port", defaultValue = "8081", description = "Port of /healthz, /readyz and /metrics.")
  int httpPort;

  @Option(names = "--bind-address", defaultValue = "0.0.0.0", description = "Address of the HTTP endpoints.")
  String bindAddress;

  @Option(names = "--create-priority-classes", description = "Create the llmkube-* PriorityClasses at start-up.")
  boolean createPriorityClasses;

  @Option(names = "--no-node-capacity-check", description = "Do not watch nodes to flag GPU counts above every node.")
  boolean noNodeCheck;

  @Option(names = "--no-model-inspection",
      description = "Do not read size and GGUF metadata of remote model files (for air-gapped clusters).")
  boolean noInspection;

  @Option(names = "--model-inspection-allow-http",
      description = "Inspect plain http model sources too (default: https only).")
  boolean inspectionAllowHttp;

  @Option(names = "--model-inspection-allowed-hosts", split = ",", paramLabel = "HOST",
      description = "Inspect model files only on these hosts (a name, or *.domain for its subdomains); default: "
          + "any host with public addresses.")
  List<String> inspectionAllowedHosts = List.of();

  @Option(names = "--model-inspection-redirect-hosts", split = ",", paramLabel = "HOST",
      defaultValue = "*.hf.co,*.huggingface.co",
      description = "Hosts a redirect may lead to besides the same host and --model-inspection-allowed-hosts "
          + "(default: ${DEFAULT-VALUE}, the Hugging Face CDN; empty for none).")
  List<String> inspectionRedirectHosts;

  @Option(names = "--model-inspection-allowed-cidrs", split = ",", paramLabel = "CIDR",
      description = "Address ranges model inspection may reach although they are loopback, private, link-local, "
          + "carrier-grade NAT or multicast (e.g. 10.0.0.0/8 for an in-cluster object store); default: none.")
  List<String> inspectionAllowedCidrs = List.of();

  @Option(names = "--model-revalidation-interval", defaultValue = "30m", converter = GoDuration.Converter.class,
      description = "How often remote Model sources are checked for changes (ETag, size): SourceDrifted, or a "
          + "re-download with refreshPolicy OnChange. 0 turns it off (default: 30m).")
  Duration revalidationInterval;

  @Mixin
  LogOptions logging = new LogOptions();

  @Mixin
  OperatorSettingsOptions settingsOptions;

  @Spec
  CommandSpec spec;

  /** The model inspection policy the --model-inspection-* flags describe. */
  InspectionPolicy inspectionPolicy() {
    return InspectionPolicy.defaults().withAllowHttp(inspectionAllowHttp).withAllowedHosts(inspectionAllowedHosts)
        .withRedirectHosts(inspectionRedirectHosts).withAllowedCidrs(inspectionAllowedCidrs);
  }

  @Override
  public Integer call() throws Exception {
    logging.apply();
    LeaderLease.Timing timing = null;
    if (leaderElect) {
      try {
        timing = new LeaderLease.Timing(leaseDuration, renewDeadline, retryPeriod);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
      }
    }
    OperatorSettings settings;
    try {
      settings = settingsOptions.settings(spec.commandLine()).toBuilder()
          .createPriorityClasses(createPriorityClasses).checkNodeCapacity(!noNodeCheck)
          .namespaces(new LinkedHashSet<>(namespaces)).inspectModels(!noInspection)
          .modelInspection(inspectionPolicy())
          .revalidationInterval(revalidationInterval)
          .modelStorage(new ModelStorageSettings(modelAgentRoots, modelAgentTimeout)).build();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    Tracing traces;
    try {
      traces = Tracing.start(tracingSettings(tracing, System.getenv())).closeOnExit();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--tracing: " + e.getMessage());
    }
    Config config = kubeconfig == null ? Config.autoConfigure(null)
        : Config.fromKubeconfig(Files.readString(kubeconfig));
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    CountDownLatch stopped = new CountDownLatch(1);
    AtomicInteger exitCode = new AtomicInteger();
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config)
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("modelplane-api-calls", ReconcileSpans.API_CALLS))
        .build()) {
      settings = settings.toBuilder().modelAgentNamespace(modelAgentNamespace != null ? modelAgentNamespace
          : client.getNamespace()).build();
      LeaderLease lease = null;
      if (leaderElect) {
        String ns = leaseNamespace != null ? leaseNamespace
            : client.getNamespace() != null ? client.getNamespace() : "default";
        lease = new LeaderLease(leaseName, ns, identity(), timing, () -> {
          exitCode.set(1);
          stopped.countDown();
        }).bind(registry);
      }
      ModelplaneOperator operator = ModelplaneOperator.create(client, settings, registry,
          lease == null ? null : lease.configuration(), traces);
      LeaderLease election = lease;
      // A follower is ready: it serves its endpoints and takes over when the leader goes. The leader is ready once
      // its informers are synced and healthy.
      BooleanSupplier ready = () -> operator.started()
          && (election != null && !election.leading() || operator.ready());
      try (HealthServer http = new HealthServer(new InetSocketAddress(bindAddress, httpPort), () -> true, ready,
          registry)) {
        // A signal handler rather than a shutdown hook: the CLI ends with System.exit, which would block forever if
        // called while shutdown hooks run.
        for (String name : List.of("TERM", "INT")) {
          sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> {
            LOG.info("stopping signal={}", name);
            stopped.countDown();
          });
        }
        // Off the start-up path: an unreachable apiserver must not hold the operator back for the client's retries.
        Set<String> watched = settings.namespaces();
        Thread.ofVirtual().name("access-check").start(() -> AccessCheck.run(client, watched));
        operator.start();
        LOG.info("serving http={}:{} leaderElection={} identity={} namespaces={} server={}", bindAddress,
            http.port(), leaderElect, lease == null ? "-" : lease.identity(),
            namespaces.isEmpty() ? "all" : String.join(",", namespaces), config.getMasterUrl());
        stopped.await();
        if (lease != null) {
          lease.stopping();
        }
        operator.close();
        if (lease != null && exitCode.get() == 0) {
          lease.release(client);
        }
        LOG.info("stopped exitCode={}", exitCode.get());
      }
    }
    return exitCode.get();
  }

  /** Tracing is on with {@code --tracing} or when an OTLP endpoint variable is set; the SDK's default sampler. */
  static TracingSettings tracingSettings(boolean flag, Map<String, String> env) {
    boolean on = flag || env.get("OTEL_EXPORTER_OTLP_ENDPOINT") != null
        || env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != null;
    return TracingSettings.fromEnv(env, on, ReconcileSpans.SERVICE_NAME, null, "parentbased_always_on", 1.0);
  }

  private static String identity() {
    String pod = System.getenv("POD_NAME");
    if (pod != null && !pod.isBlank()) {
      return pod;
    }
    try {
      return InetAddress.getLocalHost().getHostName() + "-" + ProcessHandle.current().pid();
    } catch (java.net.UnknownHostException e) {
      return "modelplane-operator-" + ProcessHandle.current().pid();
    }
  }
}
