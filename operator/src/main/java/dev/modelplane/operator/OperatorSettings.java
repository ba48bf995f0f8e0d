package dev.modelplane.operator;

import dev.modelplane.operator.common.SecurityDefaults;
import dev.modelplane.operator.modelsource.InspectionPolicy;
import dev.modelplane.operator.ome.storage.ModelStorageSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Operator-wide settings: everything the pure builders need besides the primary resource and its resolved
 * references. Flag names of {@code modelplane operator} follow LLMKube's manager flags where one exists.
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
public record OperatorSettings(
    Map<String, String> runtimeImages,
    ModelCacheSettings modelCache,
    String initContainerImage,
    long defaultFsGroup,
    long defaultRunAsUser,
    long defaultRunAsGroup,
    String huggingFaceEndpoint,
    List<String> allowedHostPathRoots,
    boolean emitScrapeAnnotations,
    boolean createPriorityClasses,
    boolean checkNodeCapacity,
    Set<String> namespaces,
    boolean useSsa,
    Duration ggufTimeout,
    boolean inspectModels,
    InspectionPolicy modelInspection,
    Duration revalidationInterval,
    boolean pyrraSlo,
    String modelAgentNamespace,
    OmeServingSettings omeServing,
    ModelServiceSettings modelService,
    BenchmarkSettings benchmark,
    ModelStorageSettings modelStorage) {

  /** Namespace of the model agents when the operator cannot tell its own. */
  public static final String DEFAULT_AGENT_NAMESPACE = "modelplane-system";
  /** Upstream's curl image for the downloader init containers. */
  public static final String DEFAULT_INIT_IMAGE = "docker.io/curlimages/curl:8.18.0";
  /** How often remote sources are checked for changes unless {@code --model-revalidation-interval} says otherwise. */
  public static final Duration DEFAULT_REVALIDATION_INTERVAL = Duration.ofMinutes(30);
  /** Upstream's default fsGroup ({@code --default-fsgroup}). */
  public static final long DEFAULT_FS_GROUP = SecurityDefaults.DEFAULT_FS_GROUP;

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

  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from these settings. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.runtimeImages = runtimeImages;
    b.modelCache = modelCache;
    b.initContainerImage = initContainerImage;
    b.defaultFsGroup = defaultFsGroup;
    b.defaultRunAsUser = defaultRunAsUser;
    b.defaultRunAsGroup = defaultRunAsGroup;
    b.huggingFaceEndpoint = huggingFaceEndpoint;
    b.allowedHostPathRoots = allowedHostPathRoots;
    b.emitScrapeAnnotations = emitScrapeAnnotations;
    b.createPriorityClasses = createPriorityClasses;
    b.checkNodeCapacity = checkNodeCapacity;
    b.namespaces = namespaces;
    b.useSsa = useSsa;
    b.ggufTimeout = ggufTimeout;
    b.inspectModels = inspectModels;
    b.modelInspection = modelInspection;
    b.revalidationInterval = revalidationInterval;
    b.pyrraSlo = pyrraSlo;
    b.modelAgentNamespace = modelAgentNamespace;
    b.modelStorage = modelStorage;
    b.omeServing = omeServing;
    b.modelService = modelService;
    b.benchmark = benchmark;
    return b;
  }

  public OperatorSettings withModelCache(ModelCacheSettings cache) {
    return toBuilder().modelCache(cache).build();
  }

  public OperatorSettings withRuntimeImages(Map<String, String> images) {
    return toBuilder().runtimeImages(images).build();
  }

  public OperatorSettings withHuggingFaceEndpoint(String endpoint) {
    return toBuilder().huggingFaceEndpoint(endpoint).build();
  }

  public OperatorSettings withScrapeAnnotations(boolean emit) {
    return toBuilder().emitScrapeAnnotations(emit).build();
  }

  public OperatorSettings withCreatePriorityClasses(boolean create) {
    return toBuilder().createPriorityClasses(create).build();
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  /** Builds settings; unset fields keep the defaults. */
  public static final class Builder {
    private Map<String, String> runtimeImages = Map.of();
    private ModelCacheSettings modelCache = ModelCacheSettings.defaults();
    private String initContainerImage = DEFAULT_INIT_IMAGE;
    private long defaultFsGroup = DEFAULT_FS_GROUP;
    private long defaultRunAsUser = SecurityDefaults.DEFAULT_RUN_AS_USER;
    private long defaultRunAsGroup = SecurityDefaults.DEFAULT_RUN_AS_GROUP;
    private String huggingFaceEndpoint;
    private List<String> allowedHostPathRoots = List.of();
    private boolean emitScrapeAnnotations;
    private boolean createPriorityClasses;
    private boolean checkNodeCapacity = true;
    private Set<String> namespaces = Set.of();
    private boolean useSsa = true;
    private Duration ggufTimeout;
    private boolean inspectModels = true;
    private InspectionPolicy modelInspection;
    private Duration revalidationInterval = DEFAULT_REVALIDATION_INTERVAL;
    private boolean pyrraSlo;
    private String modelAgentNamespace;
    private OmeServingSettings omeServing;
    private ModelServiceSettings modelService;
    private BenchmarkSettings benchmark;
    private ModelStorageSettings modelStorage;

    public Builder runtimeImages(Map<String, String> v) {
      runtimeImages = v;
      return this;
    }

    public Builder modelCache(ModelCacheSettings v) {
      modelCache = v;
      return this;
    }

    public Builder initContainerImage(String v) {
      initContainerImage = v;
      return this;
    }

    public Builder defaultFsGroup(long v) {
      defaultFsGroup = v;
      return this;
    }

    public Builder defaultRunAsUser(long v) {
      defaultRunAsUser = v;
      return this;
    }

    public Builder defaultRunAsGroup(long v) {
      defaultRunAsGroup = v;
      return this;
    }

    public Builder huggingFaceEndpoint(String v) {
      huggingFaceEndpoint = v;
      return this;
    }

    public Builder allowedHostPathRoots(List<String> v) {
      allowedHostPathRoots = v;
      return this;
    }

    public Builder emitScrapeAnnotations(boolean v) {
      emitScrapeAnnotations = v;
      return this;
    }

    public Builder createPriorityClasses(boolean v) {
      createPriorityClasses = v;
      return this;
    }

    public Builder checkNodeCapacity(boolean v) {
      checkNodeCapacity = v;
      return this;
    }

    public Builder namespaces(Set<String> v) {
      namespaces = v;
      return this;
    }

    public Builder useSsa(boolean v) {
      useSsa = v;
      return this;
    }

    public Builder ggufTimeout(Duration v) {
      ggufTimeout = v;
      return this;
    }

    public Builder pyrraSlo(boolean v) {
      pyrraSlo = v;
      return this;
    }

    public Builder revalidationInterval(Duration v) {
      revalidationInterval = v;
      return this;
    }

    public Builder modelAgentNamespace(String v) {
      modelAgentNamespace = v;
      return this;
    }

    public Builder omeServing(OmeServingSettings v) {
      omeServing = v;
      return this;
    }

    public Builder modelService(ModelServiceSettings v) {
      modelService = v;
      return this;
    }

    public Builder benchmark(BenchmarkSettings v) {
      benchmark = v;
      return this;
    }

    public Builder modelStorage(ModelStorageSettings v) {
      modelStorage = v;
      return this;
    }

    public Builder inspectModels(boolean v) {
      inspectModels = v;
      return this;
    }

    public Builder modelInspection(InspectionPolicy v) {
      modelInspection = v;
      return this;
    }

    public OperatorSettings build() {
      return new OperatorSettings(runtimeImages, modelCache, initContainerImage, defaultFsGroup, defaultRunAsUser,
          defaultRunAsGroup, huggingFaceEndpoint,
          allowedHostPathRoots, emitScrapeAnnotations, createPriorityClasses, checkNodeCapacity, namespaces, useSsa,
          ggufTimeout, inspectModels, modelInspection, revalidationInterval, pyrraSlo, modelAgentNamespace, omeServing,
          modelService, benchmark, modelStorage);
    }
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
