package dev.modelplane.cli;

import dev.modelplane.common.logging.LogOptions;
import dev.modelplane.common.text.GoDuration;
import dev.modelplane.operator.app.HealthServer;
import dev.modelplane.operator.modelsource.fetch.DownloadOptions;
import dev.modelplane.operator.ome.modelagent.AgentLimits;
import dev.modelplane.operator.ome.modelagent.ModelAgent;
import dev.modelplane.operator.ome.modelagent.ModelAgentSettings;
import dev.modelplane.operator.ome.modelagent.ModelRoots;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code modelplane model-agent}: the per-node agent that places OME BaseModels and ClusterBaseModels on a node. */
@Command(
    name = "model-agent",
    mixinStandardHelpOptions = true,
    description = {"Downloads the OME BaseModels and ClusterBaseModels whose spec.storage selects this node "
        + "(hf://, s3://; checks local:// and pvc://) and reports per-node state as a node label and an entry in "
        + "the node's status ConfigMap. Runs once per node (a DaemonSet). Serves /healthz, /readyz and /metrics on "
        + "--http-port and logs one key=value (or JSON) line per event to stderr."})
final class ModelAgentCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(ModelAgentCommand.class);
  private static final Path SERVICE_ACCOUNT_NAMESPACE =
      Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

  @Option(names = "--node-name", defaultValue = "${env:NODE_NAME}",
      description = "The node this agent serves (required; default: $NODE_NAME).")
  String nodeName;

  @Option(names = "--namespace", description = "Namespace of the per-node status ConfigMaps and of the Secrets of "
      + "ClusterBaseModels; default: the pod's namespace, else " + ModelAgentSettings.DEFAULT_NAMESPACE + ".")
  String namespace;

  @Option(names = "--models-root", split = ",", defaultValue = ModelRoots.DEFAULT,
      description = "Directories models may be stored in (spec.storage.path and local:// must be inside one); "
          + "repeatable or comma-separated; DIR or SPEC_DIR=LOCAL_DIR when this process sees the directory "
          + "elsewhere (default: " + ModelRoots.DEFAULT + ").")
  List<String> modelsRoots;

  @Option(names = "--hf-endpoint", description = "Hugging Face Hub or mirror for hf:// (default: $HF_ENDPOINT, "
      + "else https://huggingface.co).")
  URI hfEndpoint;

  @Option(names = "--max-concurrent-downloads", defaultValue = "2",
      description = "Models worked on at once (default: 2).")
  int maxConcurrentDownloads;

  @Option(names = "--progress-interval", defaultValue = "10s", converter = GoDuration.Converter.class,
      description = "Shortest time between two progress updates of a download in the ConfigMap (default: 10s).")
  Duration progressInterval;

  @Option(names = "--max-retries", defaultValue = "3",
      description = "Retries of a transient failure (unreachable source, server error, unbound claim) before the "
          + "model is reported Failed (default: 3).")
  int maxRetries;

  @Option(names = "--retry-backoff", defaultValue = "10s", converter = GoDuration.Converter.class,
      description = "Wait before the first retry; doubles each time, at most 5m (default: 10s).")
  Duration retryBackoff;

  @Option(names = "--download-attempts", defaultValue = "5",
      description = "Attempts per file within one try, with 1s..30s backoff, before a try fails (default: 5).")
  int downloadAttempts;

  @Option(names = "--simulate-downloads", description = "Write a one-file placeholder instead of downloading hf:// "
      + "and s3:// models, without credentials: for local clusters whose model servers are simulators.")
  boolean simulateDownloads;

  @Option(names = "--disk-budget", defaultValue = "0", paramLabel = "QUANTITY",
      description = "Bytes the agent's files may take in each models root, as a Kubernetes quantity (500Gi); a "
          + "download that would pass it fails with InsufficientStorage. 0 (default): only the free space counts.")
  String diskBudget;

  @Option(names = "--max-listed-objects", defaultValue = "10000",
      description = "Files one model's source may list (S3 objects, Hub files) (default: 10000).")
  int maxListedObjects;

  @Option(names = "--max-models-per-node", defaultValue = "100",
      description = "Models the agent places on its node at once; more fail with NodeModelLimit. Its node labels "
          + "and status entries are bounded by twice this (default: 100).")
  int maxModelsPerNode;

  @Option(names = "--kubeconfig", description = "Kubeconfig file; default: $KUBECONFIG, ~/.kube/config, in-cluster.")
  Path kubeconfig;

  @Option(names = "--http-port", defaultValue = "8082", description = "Port of /healthz, /readyz and /metrics.")
  int httpPort;

  @Option(names = "--bind-address", defaultValue = "0.0.0.0", description = "Address of the HTTP endpoints.")
  String bindAddress;

  @Mixin
  LogOptions logging = new LogOptions();

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    logging.apply();
    ModelAgentSettings settings = settings();
    Config config = kubeconfig == null ? Config.autoConfigure(null)
        : Config.fromKubeconfig(Files.readString(kubeconfig));
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    CountDownLatch stopped = new CountDownLatch(1);
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      ModelAgent[] agent = new ModelAgent[1];
      try (HealthServer http = new HealthServer(new InetSocketAddress(bindAddress, httpPort), () -> true,
          () -> agent[0] != null && agent[0].ready(), registry)) {
        // A signal handler rather than a shutdown hook: the CLI ends with System.exit, which would block forever if
        // called while shutdown hooks run.
        for (String name : List.of("TERM", "INT")) {
          sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> {
            LOG.info("agent.stopping signal={}", name);
            stopped.countDown();
          });
        }
        agent[0] = ModelAgent.start(client, settings, registry);
        LOG.info("agent.serving http={}:{} node={} server={}", bindAddress, http.port(), settings.nodeName(),
            config.getMasterUrl());
        stopped.await();
        agent[0].close();
        LOG.info("agent.exit exitCode=0");
      }
    }
    return 0;
  }

  private long budgetBytes() {
    java.math.BigDecimal bytes;
    try {
      bytes = io.fabric8.kubernetes.api.model.Quantity.getAmountInBytes(
          new io.fabric8.kubernetes.api.model.Quantity(diskBudget.strip()));
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new IllegalArgumentException("--disk-budget must be a quantity such as 500Gi, not '" + diskBudget + "'");
    }
    if (bytes.signum() < 0 || bytes.compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      throw new IllegalArgumentException("--disk-budget must be 0 to 8Ei, not '" + diskBudget + "'");
    }
    return bytes.longValue();
  }

  private ModelAgentSettings settings() {
    try {
      if (nodeName == null || nodeName.isBlank()) {
        throw new IllegalArgumentException("--node-name is required (or set $NODE_NAME)");
      }
      URI hub = hfEndpoint != null ? hfEndpoint : URI.create(System.getenv().getOrDefault("HF_ENDPOINT",
          "https://huggingface.co").strip());
      DownloadOptions d = DownloadOptions.DEFAULTS;
      ModelAgentSettings settings = ModelAgentSettings.of(nodeName.strip(),
              namespace != null ? namespace : podNamespace(), ModelRoots.parse(modelsRoots))
          .withHfEndpoint(hub)
          .withConcurrency(maxConcurrentDownloads, progressInterval)
          .withRetries(maxRetries, retryBackoff, new DownloadOptions(downloadAttempts, d.initialBackoff(),
              d.maxBackoff(), d.stallTimeout(), d.progressInterval()))
          .withLimits(new AgentLimits(budgetBytes(), maxListedObjects, maxModelsPerNode));
      return simulateDownloads ? settings.withSimulatedDownloads() : settings;
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  private static String podNamespace() {
    try {
      if (Files.isReadable(SERVICE_ACCOUNT_NAMESPACE)) {
        String ns = Files.readString(SERVICE_ACCOUNT_NAMESPACE).strip();
        if (!ns.isEmpty()) {
          return ns;
        }
      }
    } catch (IOException e) {
      LOG.warn("agent.namespace-unreadable file={} error=\"{}\"", SERVICE_ACCOUNT_NAMESPACE, e.getMessage());
    }
    return ModelAgentSettings.DEFAULT_NAMESPACE;
  }
}
