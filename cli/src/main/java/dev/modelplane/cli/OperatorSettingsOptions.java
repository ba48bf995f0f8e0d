package dev.modelplane.cli;

import dev.modelplane.operator.BenchmarkSettings;
import dev.modelplane.operator.ModelServiceSettings;
import dev.modelplane.operator.OmeServingSettings;
import dev.modelplane.operator.OperatorSettings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** The operator settings that change what the builders produce; shared by {@code render} and {@code operator}. */
final class OperatorSettingsOptions {
  @Option(names = "--runtime-images", split = ",", paramLabel = "RUNTIME=IMAGE",
      description = "Image per runtime when spec.image is unset, e.g. llamacpp=mirror/llama.cpp:server.")
  Map<String, String> runtimeImages = new LinkedHashMap<>();

  @Option(names = "--model-cache", defaultValue = "shared", paramLabel = "MODE",
      description = "Model cache: shared (one llmkube-model-cache claim per namespace), per-service, or none "
          + "(emptyDir, downloaded on every pod start). Default: ${DEFAULT-VALUE}.")
  String modelCache;

  @Option(names = "--model-cache-size", defaultValue = "100Gi", description = "Size of cache claims.")
  String modelCacheSize;

  @Option(names = "--model-cache-access-mode", defaultValue = "ReadWriteOnce",
      description = "Access mode of cache claims (ReadWriteMany lets pods on several nodes share one).")
  String modelCacheAccessMode;

  @Option(names = "--model-cache-storage-class", description = "Storage class of cache claims.")
  String modelCacheStorageClass;

  @Option(names = "--init-container-image", defaultValue = OperatorSettings.DEFAULT_INIT_IMAGE,
      description = "Image of the model-downloader init containers.")
  String initImage;

  @Option(names = "--default-fsgroup", defaultValue = "102", description = "fsGroup of generated pods whose user's "
      + "or runtime's pod security context sets none.")
  long fsGroup;

  @Option(names = "--default-run-as-user", defaultValue = "1000", paramLabel = "UID", description = "User of "
      + "generated pods whose user's or runtime's security context sets none (not 0: pods run as non-root).")
  long runAsUser;

  @Option(names = "--default-run-as-group", defaultValue = "1000", paramLabel = "GID", description = "Primary "
      + "group of generated pods whose user's or runtime's security context sets none.")
  long runAsGroup;

  @Option(names = "--hf-endpoint", defaultValue = "https://huggingface.co",
      description = "Hugging Face hub for hf:// sources.")
  String hfEndpoint;

  @Option(names = "--allowed-host-path-roots", split = ",", paramLabel = "DIR",
      description = "Directories local (file://) model sources may live under; none by default.")
  List<String> hostPathRoots = List.of();

  @Option(names = "--emit-scrape-annotations", description = "Add prometheus.io/* annotations to inference pods.")
  boolean scrapeAnnotations;

  @Option(names = "--enable-pyrra-slo",
      description = "Create a Pyrra ServiceLevelObjective for each InferenceService with spec.slo (Pyrra installed).")
  boolean pyrraSlo;

  @Option(names = "--ome-router-image", paramLabel = "IMAGE",
      description = "Image of the router OME InferenceServices get when they declare a router without an image. "
          + "Default: this version's modelplane image.")
  String omeRouterImage;

  @Option(names = "--ome-ingress", description = "Expose OME InferenceServices through an Ingress (or an HTTPRoute "
      + "with --ome-gateway-api) besides their in-cluster Service.")
  boolean omeIngress;

  @Option(names = "--ome-gateway-api", description = "With --ome-ingress: an HTTPRoute on --ome-gateway instead of "
      + "an Ingress.")
  boolean omeGatewayApi;

  @Option(names = "--ome-gateway", defaultValue = OmeServingSettings.DEFAULT_GATEWAY, paramLabel = "NAMESPACE/NAME",
      description = "The Gateway HTTPRoutes attach to. Default: ${DEFAULT-VALUE}.")
  String omeGateway;

  @Option(names = "--ome-ingress-class", description = "IngressClass of the Ingresses; the cluster default if unset.")
  String omeIngressClass;

  @Option(names = "--ome-ingress-domain", defaultValue = OmeServingSettings.DEFAULT_DOMAIN,
      description = "Domain of the generated host names. Default: ${DEFAULT-VALUE}.")
  String omeIngressDomain;

  @Option(names = "--ome-domain-template", defaultValue = OmeServingSettings.DEFAULT_DOMAIN_TEMPLATE,
      description = "Host name template ({{ .Name }}, {{ .Namespace }}, {{ .IngressDomain }}). "
          + "Default: ${DEFAULT-VALUE}.")
  String omeDomainTemplate;

  @Option(names = "--modelservice-engine-image", paramLabel = "IMAGE", defaultValue =
      ModelServiceSettings.DEFAULT_ENGINE_IMAGE, description = "vLLM image of ModelServices without "
      + "spec.engine.image. Default: ${DEFAULT-VALUE}.")
  String msEngineImage;

  @Option(names = "--modelservice-picker-image", paramLabel = "IMAGE", description = "Endpoint picker image of "
      + "ModelServices without spec.inferencePool.endpointPicker.image. Default: this version's modelplane image.")
  String msPickerImage;

  @Option(names = "--modelservice-routing-proxy-image", paramLabel = "IMAGE", defaultValue =
      ModelServiceSettings.DEFAULT_ROUTING_PROXY_IMAGE, description = "Routing sidecar image of decode pods. "
      + "Default: ${DEFAULT-VALUE}.")
  String msRoutingProxyImage;

  @Option(names = "--modelservice-kit-image", paramLabel = "IMAGE", defaultValue =
      ModelServiceSettings.DEFAULT_KIT_IMAGE, description = "Image of the model-unpack init container (kit); empty "
      + "for none. Default: ${DEFAULT-VALUE}.")
  String msKitImage;

  @Option(names = "--modelservice-gateway", paramLabel = "NAMESPACE/NAME", defaultValue =
      ModelServiceSettings.DEFAULT_GATEWAY_NAMESPACE + "/" + ModelServiceSettings.DEFAULT_GATEWAY_NAME,
      description = "The Gateway the HTTPRoute of a ModelService without spec.httpRoute attaches to; empty for no "
          + "route. Default: ${DEFAULT-VALUE}.")
  String msGateway;

  @Option(names = "--modelservice-provider", defaultValue = "istio", paramLabel = "PROVIDER",
      description = "istio (a DestinationRule for each endpoint picker), gke or none. Default: ${DEFAULT-VALUE}.")
  String msProvider;

  @Option(names = "--modelservice-metrics-auth", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Endpoint pickers require a bearer token on /metrics: pickers of the operator's picker image "
          + "are bound to the installed ClusterRole modelplane-endpoint-picker (token reviews). Off: no cluster RBAC "
          + "is touched (an operator serving a namespace list). Default: on.")
  boolean msMetricsAuth;

  @Option(names = "--modelservice-tracing-endpoint", paramLabel = "URL", description = "OTLP endpoint: turns on "
      + "tracing of endpoint pickers and routing sidecars.")
  String msTracingEndpoint;

  @Option(names = "--modelservice-tracing-sampler", defaultValue = "parentbased_traceidratio",
      description = "OpenTelemetry sampler. Default: ${DEFAULT-VALUE}.")
  String msTracingSampler;

  @Option(names = "--modelservice-tracing-sampler-arg", defaultValue = "0.01",
      description = "Sampler argument. Default: ${DEFAULT-VALUE}.")
  String msTracingSamplerArg;

  @Option(names = "--benchmark-image", defaultValue = BenchmarkSettings.DEFAULT_IMAGE, paramLabel = "IMAGE",
      description = "genai-bench image of BenchmarkJob pods. Default: ${DEFAULT-VALUE}.")
  String benchmarkImage;

  @Option(names = "--benchmark-cpu", defaultValue = BenchmarkSettings.DEFAULT_CPU, paramLabel = "QUANTITY",
      description = "CPU request and limit of the genai-bench container. Default: ${DEFAULT-VALUE}.")
  String benchmarkCpu;

  @Option(names = "--benchmark-memory", defaultValue = BenchmarkSettings.DEFAULT_MEMORY, paramLabel = "QUANTITY",
      description = "Memory request and limit of the genai-bench container. Default: ${DEFAULT-VALUE}.")
  String benchmarkMemory;

  @Option(names = "--benchmark-router-url", defaultValue = BenchmarkSettings.DEFAULT_ROUTER_URL, paramLabel = "URL",
      description = "The router's OpenAI gateway, for BenchmarkJobs against an InferencePool without routerUrl. "
          + "Default: ${DEFAULT-VALUE}.")
  String benchmarkRouterUrl;

  /** The settings the options describe; an unknown --model-cache mode is a usage error of {@code commandLine}. */
  OperatorSettings settings(CommandLine commandLine) {
    OperatorSettings.ModelCacheSettings cache = switch (modelCache) {
      case "none" -> OperatorSettings.ModelCacheSettings.disabled();
      case "per-service" -> new OperatorSettings.ModelCacheSettings(true, OperatorSettings.CacheMode.PER_SERVICE,
          modelCacheSize, modelCacheAccessMode, modelCacheStorageClass);
      case "shared" -> new OperatorSettings.ModelCacheSettings(true, OperatorSettings.CacheMode.SHARED,
          modelCacheSize, modelCacheAccessMode, modelCacheStorageClass);
      default -> throw new CommandLine.ParameterException(commandLine,
          "--model-cache must be shared, per-service or none, not '" + modelCache + "'");
    };
    if (runAsUser <= 0 || runAsGroup < 0 || fsGroup < 0) {
      throw new CommandLine.ParameterException(commandLine, "--default-run-as-user must be a non-root user (> 0) "
          + "and --default-run-as-group and --default-fsgroup not negative, got " + runAsUser + ", " + runAsGroup
          + " and " + fsGroup);
    }
    return OperatorSettings.builder().runtimeImages(runtimeImages).modelCache(cache).initContainerImage(initImage)
        .defaultFsGroup(fsGroup).defaultRunAsUser(runAsUser).defaultRunAsGroup(runAsGroup)
        .huggingFaceEndpoint(hfEndpoint).allowedHostPathRoots(hostPathRoots)
        .emitScrapeAnnotations(scrapeAnnotations).pyrraSlo(pyrraSlo).omeServing(omeServing(commandLine))
        .modelService(modelService(commandLine)).benchmark(benchmark(commandLine)).build();
  }

  private ModelServiceSettings modelService(CommandLine commandLine) {
    String gatewayName = "";
    String gatewayNamespace = ModelServiceSettings.DEFAULT_GATEWAY_NAMESPACE;
    if (msGateway != null && !msGateway.isEmpty()) {
      int slash = msGateway.indexOf('/');
      if (slash <= 0 || slash == msGateway.length() - 1) {
        throw new CommandLine.ParameterException(commandLine,
            "--modelservice-gateway must be NAMESPACE/NAME, not '" + msGateway + "'");
      }
      gatewayNamespace = msGateway.substring(0, slash);
      gatewayName = msGateway.substring(slash + 1);
    }
    try {
      boolean tracing = msTracingEndpoint != null && !msTracingEndpoint.isEmpty();
      return new ModelServiceSettings(msEngineImage, msPickerImage, msRoutingProxyImage, msKitImage, gatewayName,
          gatewayNamespace, ModelServiceSettings.Provider.of(msProvider), msMetricsAuth,
          new ModelServiceSettings.Tracing(tracing, msTracingEndpoint, msTracingSampler, msTracingSamplerArg));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(commandLine, "--modelservice-provider: " + e.getMessage());
    }
  }

  private BenchmarkSettings benchmark(CommandLine commandLine) {
    try {
      return new BenchmarkSettings(benchmarkImage, benchmarkCpu, benchmarkMemory, benchmarkRouterUrl, null);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(commandLine, "--benchmark-router-url: " + e.getMessage());
    }
  }

  private OmeServingSettings omeServing(CommandLine commandLine) {
    try {
      return new OmeServingSettings(omeRouterImage, omeIngress, omeGatewayApi, omeGateway, omeIngressClass,
          omeIngressDomain, omeDomainTemplate);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(commandLine, "--ome-gateway: " + e.getMessage());
    }
  }
}
