package dev.modelplane.operator;

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
 * @param defaultFsGroup fsGroup of inference pods when {@code spec.podSecurityContext} is unset
 * @param huggingFaceEndpoint base URL of the Hugging Face hub, for {@code hf://} sources
 * @param allowedHostPathRoots directories under which {@code file://} and absolute-path sources may live; empty
 *     refuses every local path
 * @param emitScrapeAnnotations add {@code prometheus.io/*} annotations to inference pods
 * @param createPriorityClasses create the {@code llmkube-*} PriorityClasses at start-up
 * @param checkNodeCapacity warn when a service asks for more GPUs than any node has
 * @param namespaces namespaces to watch; empty watches all
 * @param useSsa server-side apply for dependents and status (off only against API servers without SSA)
 * @param ggufTimeout time allowed for reading a remote GGUF header
 */
public record OperatorSettings(
    Map<String, String> runtimeImages,
    ModelCacheSettings modelCache,
    String initContainerImage,
    long defaultFsGroup,
    String huggingFaceEndpoint,
    List<String> allowedHostPathRoots,
    boolean emitScrapeAnnotations,
    boolean createPriorityClasses,
    boolean checkNodeCapacity,
    Set<String> namespaces,
    boolean useSsa,
    Duration ggufTimeout) {

  /** Upstream's curl image for the downloader init containers. */
  public static final String DEFAULT_INIT_IMAGE = "docker.io/curlimages/curl:8.18.0";
  /** Upstream's default fsGroup ({@code --default-fsgroup}). */
  public static final long DEFAULT_FS_GROUP = 102;

  public OperatorSettings {
    runtimeImages = Map.copyOf(Objects.requireNonNullElse(runtimeImages, Map.of()));
    modelCache = Objects.requireNonNullElse(modelCache, ModelCacheSettings.defaults());
    initContainerImage = Objects.requireNonNullElse(initContainerImage, DEFAULT_INIT_IMAGE);
    huggingFaceEndpoint = stripSlash(Objects.requireNonNullElse(huggingFaceEndpoint, "https://huggingface.co"));
    allowedHostPathRoots = List.copyOf(Objects.requireNonNullElse(allowedHostPathRoots, List.of()));
    namespaces = Set.copyOf(Objects.requireNonNullElse(namespaces, Set.of()));
    ggufTimeout = Objects.requireNonNullElse(ggufTimeout, Duration.ofSeconds(20));
  }

  /** The settings {@code modelplane operator} and {@code modelplane render} use without flags. */
  public static OperatorSettings defaults() {
    return new OperatorSettings(Map.of(), ModelCacheSettings.defaults(), DEFAULT_INIT_IMAGE, DEFAULT_FS_GROUP, null,
        List.of(), false, false, true, Set.of(), true, null);
  }

  public OperatorSettings withModelCache(ModelCacheSettings cache) {
    return new OperatorSettings(runtimeImages, cache, initContainerImage, defaultFsGroup, huggingFaceEndpoint,
        allowedHostPathRoots, emitScrapeAnnotations, createPriorityClasses, checkNodeCapacity, namespaces, useSsa,
        ggufTimeout);
  }

  public OperatorSettings withRuntimeImages(Map<String, String> images) {
    return new OperatorSettings(images, modelCache, initContainerImage, defaultFsGroup, huggingFaceEndpoint,
        allowedHostPathRoots, emitScrapeAnnotations, createPriorityClasses, checkNodeCapacity, namespaces, useSsa,
        ggufTimeout);
  }

  public OperatorSettings withHuggingFaceEndpoint(String endpoint) {
    return new OperatorSettings(runtimeImages, modelCache, initContainerImage, defaultFsGroup, endpoint,
        allowedHostPathRoots, emitScrapeAnnotations, createPriorityClasses, checkNodeCapacity, namespaces, useSsa,
        ggufTimeout);
  }

  public OperatorSettings withAllowedHostPathRoots(List<String> roots) {
    return new OperatorSettings(runtimeImages, modelCache, initContainerImage, defaultFsGroup, huggingFaceEndpoint,
        roots, emitScrapeAnnotations, createPriorityClasses, checkNodeCapacity, namespaces, useSsa, ggufTimeout);
  }

  public OperatorSettings withScrapeAnnotations(boolean emit) {
    return new OperatorSettings(runtimeImages, modelCache, initContainerImage, defaultFsGroup, huggingFaceEndpoint,
        allowedHostPathRoots, emit, createPriorityClasses, checkNodeCapacity, namespaces, useSsa, ggufTimeout);
  }

  public OperatorSettings withCreatePriorityClasses(boolean create) {
    return new OperatorSettings(runtimeImages, modelCache, initContainerImage, defaultFsGroup, huggingFaceEndpoint,
        allowedHostPathRoots, emitScrapeAnnotations, create, checkNodeCapacity, namespaces, useSsa, ggufTimeout);
  }

  public OperatorSettings withNamespaces(Set<String> watched) {
    return new OperatorSettings(runtimeImages, modelCache, initContainerImage, defaultFsGroup, huggingFaceEndpoint,
        allowedHostPathRoots, emitScrapeAnnotations, createPriorityClasses, checkNodeCapacity, watched, useSsa,
        ggufTimeout);
  }

  public OperatorSettings withUseSsa(boolean ssa) {
    return new OperatorSettings(runtimeImages, modelCache, initContainerImage, defaultFsGroup, huggingFaceEndpoint,
        allowedHostPathRoots, emitScrapeAnnotations, createPriorityClasses, checkNodeCapacity, namespaces, ssa,
        ggufTimeout);
  }

  public OperatorSettings withInitContainerImage(String image) {
    return new OperatorSettings(runtimeImages, modelCache, image, defaultFsGroup, huggingFaceEndpoint,
        allowedHostPathRoots, emitScrapeAnnotations, createPriorityClasses, checkNodeCapacity, namespaces, useSsa,
        ggufTimeout);
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
