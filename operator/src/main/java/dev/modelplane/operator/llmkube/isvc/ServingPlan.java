package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.AutoscalingSpec;
import dev.modelplane.api.llmkube.v1alpha1.CachePersistence;
import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.InferenceServiceSpec;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.ModelCacheSpec;
import dev.modelplane.api.llmkube.v1alpha1.ServiceType;
import dev.modelplane.api.llmkube.v1alpha1.SpeculativeDecoding;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.Names;
import dev.modelplane.operator.llmkube.IsvcLabels;
import dev.modelplane.operator.llmkube.ModelStaging;
import dev.modelplane.operator.llmkube.runtime.GpuPlan;
import dev.modelplane.operator.llmkube.runtime.RuntimeInput;
import dev.modelplane.operator.llmkube.runtime.RuntimeRenderer;
import dev.modelplane.operator.modelsource.ModelLayout;
import dev.modelplane.operator.modelsource.SourceFingerprint;
import dev.modelplane.operator.scheduling.PriorityTier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Every decision about one InferenceService that more than one object depends on, made once: names, ports, GPUs,
 * model staging, cache, replicas, priority class. Pure: {@code (InferenceService, Models, settings) → plan}; the
 * builders turn it into objects.
 *
 * @param isvc the InferenceService
 * @param model the resolved Model
 * @param draft the draft Model of {@code speculativeDecoding.draftModelRef}, or null
 * @param settings operator settings
 * @param renderer the runtime's renderer
 * @param runtimeInput what the renderer is given
 * @param layout where the model lives in the pod
 * @param draftLayout where the draft Model ({@code speculativeDecoding.draftModelRef}) lives, or null
 * @param gpu the pod's GPUs
 * @param containerPort the port the server really listens on
 * @param servicePort the Service's port ({@code endpoint.port}, else 8080)
 * @param cache how downloaded files are stored
 * @param downloads files the downloader fetches (main model, then draft), as absolute target paths and URLs
 * @param mountSource whether a {@code pvc://} or local main-model source is mounted
 * @param mountDraft whether a {@code pvc://} or local draft-model source is mounted
 * @param replicas {@code spec.replicas}, 1 when unset
 * @param suspended {@code spec.suspend}: held at zero pods
 * @param autoscaling whether an HPA is managed
 * @param priorityClassName the PriorityClass the pods use
 */
public record ServingPlan(
    InferenceService isvc,
    Model model,
    Model draft,
    OperatorSettings settings,
    RuntimeRenderer renderer,
    RuntimeInput runtimeInput,
    ModelLayout layout,
    ModelLayout draftLayout,
    GpuPlan gpu,
    int containerPort,
    int servicePort,
    Cache cache,
    List<ModelStaging.Download> downloads,
    boolean mountSource,
    boolean mountDraft,
    int replicas,
    boolean suspended,
    boolean autoscaling,
    String priorityClassName) {

  /** Service port when {@code endpoint.port} is unset. */
  public static final int DEFAULT_SERVICE_PORT = 8080;
  /** Request path when {@code endpoint.path} is unset. */
  public static final String DEFAULT_PATH = "/v1/chat/completions";
  /** Mount points of a draft model's claim or node directory. */
  public static final String DRAFT_PVC_MOUNT = "/draft-source";
  public static final String DRAFT_HOST_MOUNT = "/draft-host";

  /**
   * Where downloaded model files are kept.
   *
   * @param kind claim, emptyDir or nothing
   * @param claimName the claim, for the claim kinds
   * @param sizeLimit the emptyDir's size limit ({@code resources.ephemeralStorage}), or null
   */
  public record Cache(CacheKind kind, String claimName, String sizeLimit) {
    static final Cache NONE = new Cache(CacheKind.NONE, null, null);
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
    OWNED_CLAIM,
    /** A claim the user made and named in {@code modelCache.claimName}; never created or deleted. */
    USER_CLAIM
  }

  /** The plan without a draft model. */
  public static ServingPlan of(InferenceService isvc, Model model, OperatorSettings settings) {
    return of(isvc, model, null, settings);
  }

  /**
   * The plan for a service, its Model and, with {@code speculativeDecoding.draftModelRef}, its draft Model.
   *
   * @throws IllegalArgumentException when a Model's source does not parse (the Model controller reports it)
   */
  public static ServingPlan of(InferenceService isvc, Model model, Model draft, OperatorSettings settings) {
    InferenceServiceSpec spec = isvc.getSpec();
    RuntimeRenderer renderer = RuntimeRenderer.of(spec.runtime());
    ModelLayout layout = ModelLayout.of(model, settings.huggingFaceEndpoint());
    ModelLayout draftLayout = draft == null ? null
        : ModelLayout.of(draft, settings.huggingFaceEndpoint()).remounted(DRAFT_PVC_MOUNT, DRAFT_HOST_MOUNT);
    GpuPlan gpu = GpuPlan.of(spec, model);
    String name = isvc.getMetadata().getName();
    RuntimeInput input = new RuntimeInput(name, LlmkubeServerSpec.of(spec), layout, gpu, settings.runtimeImages().get(renderer.runtimeName()),
        draftPath(spec, layout, draftLayout));
    boolean skip = Boolean.TRUE.equals(spec.skipModelInit());
    List<ModelStaging.Download> downloads = new ArrayList<>();
    if (!skip && renderer.usesModelInit()) {
      downloads.addAll(ModelStaging.downloadsOf(layout, model.getSpec().sha256(),
          SourceFingerprint.refreshToken(model)));
      if (draftLayout != null) {
        downloads.addAll(ModelStaging.downloadsOf(draftLayout, draft.getSpec().sha256(),
            SourceFingerprint.refreshToken(draft)));
      }
    }
    Cache cache = downloads.isEmpty() ? Cache.NONE : cache(name, spec, settings);
    boolean mount = !skip && staged(layout);
    boolean mountDraft = !skip && draftLayout != null && staged(draftLayout);
    int replicas = spec.replicas() == null ? 1 : spec.replicas();
    boolean suspended = Boolean.TRUE.equals(spec.suspend());
    boolean hpa = spec.autoscaling() != null && !suspended && replicas > 0
        && hpaMetricsAvailable(spec.autoscaling(), renderer);
    String priorityClass = spec.priorityClassName() != null && !spec.priorityClassName().isBlank()
        ? spec.priorityClassName() : PriorityTier.of(spec.priority()).className();
    return new ServingPlan(isvc, model, draft, settings, renderer, input, layout, draftLayout, gpu,
        renderer.listenPort(input), servicePort(spec), cache, List.copyOf(downloads), mount, mountDraft, replicas,
        suspended, hpa, priorityClass);
  }

  private static boolean staged(ModelLayout layout) {
    return layout.staging() == ModelLayout.Staging.PVC || layout.staging() == ModelLayout.Staging.HOST_PATH;
  }

  private static Cache cache(String name, InferenceServiceSpec spec, OperatorSettings settings) {
    ModelCacheSpec own = spec.modelCache();
    if (own != null && own.persistence() == CachePersistence.EPHEMERAL) {
      return new Cache(CacheKind.EMPTY_DIR, null, spec.resources() == null ? null : spec.resources().ephemeralStorage());
    }
    if (own != null && own.claimName() != null && !own.claimName().isBlank()) {
      return new Cache(CacheKind.USER_CLAIM, own.claimName(), null);
    }
    OperatorSettings.ModelCacheSettings cs = settings.modelCache();
    if (!cs.enabled()) {
      return new Cache(CacheKind.EMPTY_DIR, null, null);
    }
    if (cs.mode() == OperatorSettings.CacheMode.PER_SERVICE) {
      return new Cache(CacheKind.OWNED_CLAIM, cacheClaimName(name), null);
    }
    return new Cache(CacheKind.SHARED_CLAIM, ModelStaging.SHARED_CACHE_CLAIM, null);
  }

  /** llama.cpp's {@code -md} path: the draft Model's primary file, or {@code draftModel} beside the main model. */
  public static String draftPath(InferenceServiceSpec spec, ModelLayout layout, ModelLayout draftLayout) {
    SpeculativeDecoding sd = spec.speculativeDecoding();
    if (sd == null) {
      return null;
    }
    if (draftLayout != null && draftLayout.staging() != ModelLayout.Staging.RUNTIME) {
      return draftLayout.modelPath();
    }
    if (sd.draftModel() != null && !sd.draftModel().isBlank() && layout.modelDir() != null) {
      return layout.modelDir() + "/" + sd.draftModel();
    }
    return null;
  }

  /** Name of the per-service cache claim. */
  public static String cacheClaimName(String isvcName) {
    return Names.child(isvcName, "model-cache");
  }

  static boolean hpaMetricsAvailable(AutoscalingSpec autoscaling, RuntimeRenderer renderer) {
    return (autoscaling.metrics() != null && !autoscaling.metrics().isEmpty()) || renderer.defaultHpaMetric() != null;
  }

  static int servicePort(InferenceServiceSpec spec) {
    return spec.endpoint() != null && spec.endpoint().port() != null ? spec.endpoint().port() : DEFAULT_SERVICE_PORT;
  }

  /** Whether the pods run the downloader init containers. */
  public boolean modelInit() {
    return !downloads.isEmpty();
  }

  /** Replicas the Deployment should have: 0 while suspended, else {@code spec.replicas}. */
  public int effectiveReplicas() {
    return suspended ? 0 : replicas;
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
