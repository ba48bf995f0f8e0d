package dev.modelplane.operator.llmkube;

import dev.modelplane.api.llmkube.v1alpha1.AutoscalingSpec;
import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.InferenceServiceSpec;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.ServiceType;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.model.ModelLayout;
import dev.modelplane.operator.runtime.GpuPlan;
import dev.modelplane.operator.runtime.RuntimeInput;
import dev.modelplane.operator.runtime.RuntimeRenderer;
import dev.modelplane.operator.scheduling.PriorityTier;
import java.util.Map;

/**
 * Every decision about one InferenceService that more than one object depends on, made once: names, ports, GPUs,
 * model staging, cache, replicas, priority class. Pure: {@code (InferenceService, Model, settings) → plan}; the
 * builders turn it into objects.
 *
 * @param isvc the InferenceService
 * @param model the resolved Model
 * @param settings operator settings
 * @param renderer the runtime's renderer
 * @param runtimeInput what the renderer is given
 * @param layout where the model lives in the pod
 * @param gpu the pod's GPUs
 * @param containerPort the port the server really listens on
 * @param servicePort the Service's port ({@code endpoint.port}, else 8080)
 * @param cache how downloaded files are stored
 * @param modelInit whether the downloader init containers run
 * @param mountSource whether a {@code pvc://} or local source is mounted
 * @param replicas {@code spec.replicas}, 1 when unset
 * @param autoscaling whether an HPA is managed
 * @param priorityClassName the PriorityClass the pods use
 */
public record ServingPlan(
    InferenceService isvc,
    Model model,
    OperatorSettings settings,
    RuntimeRenderer renderer,
    RuntimeInput runtimeInput,
    ModelLayout layout,
    GpuPlan gpu,
    int containerPort,
    int servicePort,
    Cache cache,
    boolean modelInit,
    boolean mountSource,
    int replicas,
    boolean autoscaling,
    String priorityClassName) {

  /** Name of the per-namespace shared cache claim. */
  public static final String SHARED_CACHE_CLAIM = "llmkube-model-cache";
  /** Service port when {@code endpoint.port} is unset. */
  public static final int DEFAULT_SERVICE_PORT = 8080;
  /** Request path when {@code endpoint.path} is unset. */
  public static final String DEFAULT_PATH = "/v1/chat/completions";

  /**
   * Where downloaded model files are kept.
   *
   * @param kind claim, emptyDir or nothing
   * @param claimName the claim, for the claim kinds
   */
  public record Cache(CacheKind kind, String claimName) {
    static final Cache NONE = new Cache(CacheKind.NONE, null);
  }

  /** How downloaded model files are kept. */
  public enum CacheKind {
    /** Nothing is downloaded. */
    NONE,
    /** Downloaded again into an emptyDir whenever a pod starts. */
    EMPTY_DIR,
    /** The namespace's shared claim, created if missing and never deleted by the operator. */
    SHARED_CLAIM,
    /** A claim owned by the InferenceService. */
    OWNED_CLAIM
  }

  /**
   * The plan for a service and its Model.
   *
   * @throws IllegalArgumentException when the Model's source does not parse (the Model controller reports it)
   */
  public static ServingPlan of(InferenceService isvc, Model model, OperatorSettings settings) {
    InferenceServiceSpec spec = isvc.getSpec();
    RuntimeRenderer renderer = RuntimeRenderer.of(spec.runtime());
    ModelLayout layout = ModelLayout.of(model, settings.huggingFaceEndpoint());
    GpuPlan gpu = GpuPlan.of(spec, model);
    String name = isvc.getMetadata().getName();
    RuntimeInput input = new RuntimeInput(name, spec, layout, gpu, settings.runtimeImages().get(renderer.runtimeName()));
    boolean skip = Boolean.TRUE.equals(spec.skipModelInit());
    boolean init = !skip && renderer.usesModelInit() && layout.staging() == ModelLayout.Staging.DOWNLOAD;
    Cache cache = Cache.NONE;
    if (init) {
      OperatorSettings.ModelCacheSettings cs = settings.modelCache();
      if (!cs.enabled()) {
        cache = new Cache(CacheKind.EMPTY_DIR, null);
      } else if (cs.mode() == OperatorSettings.CacheMode.PER_SERVICE) {
        cache = new Cache(CacheKind.OWNED_CLAIM, cacheClaimName(name));
      } else {
        cache = new Cache(CacheKind.SHARED_CLAIM, SHARED_CACHE_CLAIM);
      }
    }
    boolean mount = !skip && (layout.staging() == ModelLayout.Staging.PVC
        || layout.staging() == ModelLayout.Staging.HOST_PATH);
    int replicas = spec.replicas() == null ? 1 : spec.replicas();
    boolean hpa = spec.autoscaling() != null && replicas > 0 && hpaMetricsAvailable(spec.autoscaling(), renderer);
    String priorityClass = spec.priorityClassName() != null && !spec.priorityClassName().isBlank()
        ? spec.priorityClassName() : PriorityTier.of(spec.priority()).className();
    return new ServingPlan(isvc, model, settings, renderer, input, layout, gpu, renderer.listenPort(input),
        servicePort(spec), cache, init, mount, replicas, hpa, priorityClass);
  }

  /** Name of the per-service cache claim. */
  public static String cacheClaimName(String isvcName) {
    return dev.modelplane.operator.common.Names.child(isvcName, "model-cache");
  }

  static boolean hpaMetricsAvailable(AutoscalingSpec autoscaling, RuntimeRenderer renderer) {
    return (autoscaling.metrics() != null && !autoscaling.metrics().isEmpty()) || renderer.defaultHpaMetric() != null;
  }

  static int servicePort(InferenceServiceSpec spec) {
    return spec.endpoint() != null && spec.endpoint().port() != null ? spec.endpoint().port() : DEFAULT_SERVICE_PORT;
  }

  public String name() {
    return isvc.getMetadata().getName();
  }

  public String namespace() {
    return isvc.getMetadata().getNamespace();
  }

  public InferenceServiceSpec spec() {
    return isvc.getSpec();
  }

  /** The Service's name: the service's name with dots replaced, as upstream. */
  public String serviceName() {
    return serviceName(name());
  }

  public static String serviceName(String isvcName) {
    return isvcName.replace('.', '-');
  }

  /** Service type, ClusterIP when unset. */
  public ServiceType serviceType() {
    return spec().endpoint() == null || spec().endpoint().type() == null ? ServiceType.CLUSTER_IP
        : spec().endpoint().type();
  }

  /** Request path of the endpoint URL. */
  public String endpointPath() {
    return spec().endpoint() == null || spec().endpoint().path() == null ? DEFAULT_PATH : spec().endpoint().path();
  }

  /** {@code http://<svc>.<ns>.svc.cluster.local:<port><path>}. */
  public String endpointUrl() {
    return "http://" + serviceName() + "." + namespace() + ".svc.cluster.local:" + servicePort + endpointPath();
  }

  /** Labels of the objects and pods the operator owns. */
  public Map<String, String> labels() {
    return IsvcLabels.operatorLabels(name(), spec().modelRef(), renderer.runtimeName());
  }

  /** The Deployment's selector. */
  public Map<String, String> selector() {
    return IsvcLabels.selector(name());
  }
}
