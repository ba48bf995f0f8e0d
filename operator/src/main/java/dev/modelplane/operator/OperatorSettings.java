package dev.modelplane.operator;

import dev.modelplane.operator.common.SecurityDefaults;
import dev.modelplane.operator.modelsource.InspectionPolicy;
import dev.modelplane.operator.ome.storage.ModelStorageSettings;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Operator-wide settings: everything the pure builders need besides the primary resource and its resolved
 * references. Flag names of {@code modelplane operator} follow LLMKube's manager flags where one exists.
 *
 * <p>{@link OperatorSettingsBuilder} is generated at compile time: a field left unset in it is null or false, which
 * the constructor turns into the default, except where an {@code Initializer} names the default.
 *
 * @param runtimeImages image per runtime name ({@code llamacpp=…}), used when {@code spec.image} is unset; wins over
 *     the vendor-specific and built-in defaults
 * @param modelCache where and how downloaded models are cached
 * @param initContainerImage image of the model-downloader and cache-prep init containers
 * @param defaultFsGroup fsGroup of generated pods unless the user's or runtime's pod security context sets one
 * @param defaultRunAsUser user of generated pods unless the user's or runtime's security context sets one; never 0
 * @param defaultRunAsGroup primary group of generated pods unless the user's or runtime's security context sets one
 * @param huggingFaceEndpoint base URL of the Hugging Face hub, for {@code hf://} sources
 * @param allowedHostPathRoots directories under which {@code file://} and absolute-path sources may live; empty
 *     refuses every local path
 * @param emitScrapeAnnotations add {@code prometheus.io/*} annotations to inference pods
 * @param createPriorityClasses create the {@code llmkube-*} PriorityClasses at start-up
 * @param checkNodeCapacity warn when a service asks for more GPUs than any node has
 * @param namespaces namespaces to watch; empty watches all
 * @param useSsa server-side apply for dependents and status (off only against API servers without SSA)
 * @param ggufTimeout time allowed for reading a remote GGUF header
 * @param inspectModels read size and GGUF metadata of remote model files (off for air-gapped clusters)
 * @param modelInspection schemes, hosts and addresses the operator may read remote model files from
 * @param revalidationInterval how often a remote Model's source is checked for changes (ETag, length); zero never
 * @param pyrraSlo create a Pyrra {@code ServiceLevelObjective} for each service with {@code spec.slo}
 * @param modelAgentNamespace namespace of the OME model agents' per-node status ConfigMaps (and of the Secrets
 *     ClusterBaseModels name)
 * @param omeServing exposure and default router of OME InferenceServices
 * @param modelService images, gateway, mesh provider, metrics authentication and tracing of OtterScale ModelServices
 * @param benchmark image, resources and router of OME BenchmarkJobs
 * @param modelStorage the model agents' roots and how long a deleted model waits for an unreachable node's agent
 */
@RecordBuilder
@RecordBuilder.Options(addClassRetainedGenerated = false)
public record OperatorSettings(
    Map<String, String> runtimeImages,
    ModelCacheSettings modelCache,
    String initContainerImage,
    @RecordBuilder.Initializer("DEFAULT_FS_GROUP") long defaultFsGroup,
    @RecordBuilder.Initializer("DEFAULT_RUN_AS_USER") long defaultRunAsUser,
    @RecordBuilder.Initializer("DEFAULT_RUN_AS_GROUP") long defaultRunAsGroup,
    String huggingFaceEndpoint,
    List<String> allowedHostPathRoots,
    boolean emitScrapeAnnotations,
    boolean createPriorityClasses,
    @RecordBuilder.Initializer("DEFAULT_CHECK_NODE_CAPACITY") boolean checkNodeCapacity,
    Set<String> namespaces,
    @RecordBuilder.Initializer("DEFAULT_USE_SSA") boolean useSsa,
    Duration ggufTimeout,
    @RecordBuilder.Initializer("DEFAULT_INSPECT_MODELS") boolean inspectModels,
    InspectionPolicy modelInspection,
    Duration revalidationInterval,
    boolean pyrraSlo,
    String modelAgentNamespace,
    OmeServingSettings omeServing,
    ModelServiceSettings modelService,
    BenchmarkSettings benchmark,
    ModelStorageSettings modelStorage) implements OperatorSettingsBuilder.With {

  /** Namespace of the model agents when the operator cannot tell its own. */
  public static final String DEFAULT_AGENT_NAMESPACE = "modelplane-system";
  /** Upstream's curl image for the downloader init containers. */
  public static final String DEFAULT_INIT_IMAGE = "docker.io/curlimages/curl:8.18.0";
  /** How often remote sources are checked for changes unless {@code --model-revalidation-interval} says otherwise. */
  public static final Duration DEFAULT_REVALIDATION_INTERVAL = Duration.ofMinutes(30);
  /** Upstream's default fsGroup ({@code --default-fsgroup}). */
  public static final long DEFAULT_FS_GROUP = SecurityDefaults.DEFAULT_FS_GROUP;
  /** User of generated pods unless {@code --default-run-as-user} says otherwise. */
  public static final long DEFAULT_RUN_AS_USER = SecurityDefaults.DEFAULT_RUN_AS_USER;
  /** Group of generated pods unless {@code --default-run-as-group} says otherwise. */
  public static final long DEFAULT_RUN_AS_GROUP = SecurityDefaults.DEFAULT_RUN_AS_GROUP;
  /** Nodes are watched for the "more GPUs than any node" warning unless {@code --no-node-capacity-check}. */
  public static final boolean DEFAULT_CHECK_NODE_CAPACITY = true;
  /** Dependents and status are written with server-side apply unless turned off. */
  public static final boolean DEFAULT_USE_SSA = true;
  /** Remote model files are inspected unless {@code --no-model-inspection}. */
  public static final boolean DEFAULT_INSPECT_MODELS = true;

  public OperatorSettings {
    runtimeImages = Map.copyOf(Objects.requireNonNullElse(runtimeImages, Map.of()));
    modelCache = Objects.requireNonNullElse(modelCache, ModelCacheSettings.defaults());
    initContainerImage = Objects.requireNonNullElse(initContainerImage, DEFAULT_INIT_IMAGE);
    huggingFaceEndpoint = stripSlash(Objects.requireNonNullElse(huggingFaceEndpoint, "https://huggingface.co"));
    allowedHostPathRoots = List.copyOf(Objects.requireNonNullElse(allowedHostPathRoots, List.of()));
    namespaces = Set.copyOf(Objects.requireNonNullElse(namespaces, Set.of()));
    ggufTimeout = Objects.requireNonNullElse(ggufTimeout, Duration.ofSeconds(20));
    modelInspection = Objects.requireNonNullElse(modelInspection, InspectionPolicy.defaults());
    revalidationInterval = Objects.requireNonNullElse(revalidationInterval, DEFAULT_REVALIDATION_INTERVAL);
    modelAgentNamespace = Objects.requireNonNullElse(modelAgentNamespace, DEFAULT_AGENT_NAMESPACE);
    omeServing = Objects.requireNonNullElse(omeServing, OmeServingSettings.defaults());
    modelService = Objects.requireNonNullElse(modelService, ModelServiceSettings.defaults());
    benchmark = Objects.requireNonNullElse(benchmark, BenchmarkSettings.defaults());
    modelStorage = Objects.requireNonNullElse(modelStorage, ModelStorageSettings.defaults());
    new SecurityDefaults(defaultRunAsUser, defaultRunAsGroup, defaultFsGroup); // rejects a root user
    if (revalidationInterval.isNegative()) {
      throw new IllegalArgumentException("the revalidation interval must not be negative, got "
          + revalidationInterval.toMillis() + "ms");
    }
  }

  /** The security context defaults of every generated pod. */
  public SecurityDefaults securityDefaults() {
    return new SecurityDefaults(defaultRunAsUser, defaultRunAsGroup, defaultFsGroup);
  }

  /** The settings {@code modelplane operator} and {@code modelplane render} use without flags. */
  public static OperatorSettings defaults() {
    return builder().build();
  }

  public static OperatorSettingsBuilder builder() {
    return OperatorSettingsBuilder.builder();
  }

  /** A builder starting from these settings. */
  public OperatorSettingsBuilder toBuilder() {
    return OperatorSettingsBuilder.builder(this);
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  /**
   * The model cache: a PersistentVolumeClaim mounted at {@code /models} in which each model lives under its cache
   * key. Without it, models are downloaded into an emptyDir on every pod start.
   *
   * @param enabled use a PersistentVolumeClaim (upstream: {@code --model-cache-path} set)
   * @param mode one shared claim per namespace, or one claim per InferenceService
   * @param size requested size ({@code --model-cache-size})
   * @param accessMode access mode ({@code --model-cache-access-mode})
   * @param storageClassName storage class, or null for the cluster default
   */
  public record ModelCacheSettings(boolean enabled, CacheMode mode, String size, String accessMode,
      String storageClassName) {
    public static ModelCacheSettings defaults() {
      return new ModelCacheSettings(true, CacheMode.SHARED, "100Gi", "ReadWriteOnce", null);
    }

    public static ModelCacheSettings disabled() {
      return new ModelCacheSettings(false, CacheMode.SHARED, "100Gi", "ReadWriteOnce", null);
    }
  }

  /** How model-cache claims are shared. */
  public enum CacheMode {
    /** One {@code llmkube-model-cache} claim per namespace, never deleted by the operator. */
    SHARED,
    /** One {@code <service>-model-cache} claim per InferenceService, deleted with it. */
    PER_SERVICE
  }
}
