package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.AccelerationStatus;
import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.InferenceServiceStatus;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.ModelPhase;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.Clients;
import dev.modelplane.operator.common.Conditions;
import dev.modelplane.operator.common.EventRecorder;
import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.common.StatusWriter;
import dev.modelplane.operator.llmkube.isvc.IsvcObservation.ModelGate;
import dev.modelplane.operator.runtime.GpuPlan;
import dev.modelplane.operator.runtime.ServingModes;
import dev.modelplane.operator.scheduling.GpuQueue;
import dev.modelplane.operator.scheduling.PriorityTier;
import dev.modelplane.operator.scheduling.SchedulingInfo;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;
import io.javaoperatorsdk.operator.processing.dependent.workflow.WorkflowReconcileResult;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles LLMKube InferenceServices: observe (Model, live Deployment, pods, PriorityClasses, nodes) → validate →
 * reconcile the owned objects through the workflow → record status through {@link IsvcStatusAggregator}. Problems
 * with the spec become conditions and Warning Events, never exceptions. A service is looked at again on a timer only
 * when something is due: an API error (30 s), the next pod expiry ({@code maxPodLifetimeSeconds}), a rollout waiting
 * for idle servers (5 s), or an integration whose CRDs are missing (60 s).
 */
@ControllerConfiguration(name = InferenceServiceReconciler.NAME)
@Workflow(explicitInvocation = true, handleExceptionsInReconciler = true, dependents = {
    @Dependent(name = "cache-claim", type = CachePvcDependent.class,
        reconcilePrecondition = CachePvcDependent.Needed.class),
    @Dependent(name = "deployment", type = DeploymentDependent.class),
    @Dependent(name = "service", type = ServiceDependent.class),
    @Dependent(name = "hpa", type = HpaDependent.class, reconcilePrecondition = HpaDependent.Enabled.class)})
public class InferenceServiceReconciler implements Reconciler<InferenceService>, Cleaner<InferenceService> {
  public static final String NAME = "llmkube-inferenceservice";
  private static final Logger LOG = LoggerFactory.getLogger(InferenceServiceReconciler.class);
  private static final Duration ERROR_RETRY = Duration.ofSeconds(30);
  /** llama.cpp prints where it loaded the model within its first few kilobytes; read at most this much. */
  private static final int ACCELERATION_LOG_BYTES = 256 * 1024;
  /** Per service, the pod whose log {@code status.acceleration} was last read from. */
  private final Map<ResourceID, String> accelerationReadFrom = new java.util.concurrent.ConcurrentHashMap<>();
  private static final Duration CONFLICT_RETRY = Duration.ofMillis(500);

  private final OperatorSettings settings;
  private final GpuQueue queue;
  private final EventRecorder events;
  private final Clock clock;
  private final SimpleInboundEventSource<InferenceService> queueEvents = new SimpleInboundEventSource<>("gpu-queue");
  private final Set<ResourceID> capacityWatchers = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final IdleProbe idleProbe = new IdleProbe(Duration.ofSeconds(2));
  private final Map<ResourceID, Refusals> recycleRefusals = new java.util.concurrent.ConcurrentHashMap<>();

  public InferenceServiceReconciler(OperatorSettings settings, GpuQueue queue, EventRecorder events, Clock clock) {
    this.settings = settings;
    this.queue = queue;
    this.events = events;
    this.clock = clock;
    queue.onMoved(moved -> moved.forEach(e -> queueEvents.propagateEvent(new ResourceID(e.name(), e.namespace()))));
  }

  @Override
  public List<EventSource<?, InferenceService>> prepareEventSources(EventSourceContext<InferenceService> context) {
    IsvcEventSources.addIndexers(context.getPrimaryCache());
    List<EventSource<?, InferenceService>> sources = new ArrayList<>();
    sources.add(IsvcEventSources.models(context));
    sources.add(IsvcEventSources.pods(context));
    sources.add(IsvcEventSources.priorityClasses(context));
    if (settings.checkNodeCapacity()) {
      sources.add(IsvcEventSources.nodes(context, () -> Set.copyOf(capacityWatchers)));
    }
    sources.add(queueEvents);
    return sources;
  }

  /**
   * What the caches show about one service before anything is applied.
   *
   * @param model the served Model, or null
   * @param draft the draft Model, or null
   * @param gate whether the Models allow serving
   * @param classes PriorityClass values by name
   * @param live the live Deployment, or null
   * @param problems validation problems
   */
  private record Observed(Model model, Model draft, ModelGate gate, Map<String, Integer> classes, Deployment live,
      List<FieldProblem> problems) {
  }

  /**
   * The outcome of applying the owned objects.
   *
   * @param plan the plan, or null when nothing was applied
   * @param gate the Model gate (FAILED when a Model's source turned out invalid)
   * @param live the Deployment after the workflow, or null
   * @param error why applying failed, or null
   * @param conflict the objects changed under us: run again shortly
   * @param rollout the waitForIdle decision, or null
   * @param integrations the SLO and gateway outcome, or null when nothing was applied
   */
  private record Applied(ServingPlan plan, ModelGate gate, Deployment live, String error, boolean conflict,
      RolloutGate.Decision rollout, Integrations.Outcome integrations) {
  }

  @Override
  public UpdateControl<InferenceService> reconcile(InferenceService isvc, Context<InferenceService> context) {
    Observed seen = observe(isvc, context);
    Applied applied = apply(isvc, seen, context);
    if (applied.conflict()) {
      LOG.info("retry isvc={}/{} reason=conflict", isvc.getMetadata().getNamespace(), isvc.getMetadata().getName());
      return UpdateControl.<InferenceService>noUpdate().rescheduleAfter(CONFLICT_RETRY);
    }
    record(isvc, seen, applied, context);
    Duration next = earliest(recycle(isvc, applied, context),
        applied.integrations() == null ? null : applied.integrations().recheck(),
        applied.rollout() == null ? null : applied.rollout().recheck(),
        applied.error() == null ? null : ERROR_RETRY);
    UpdateControl<InferenceService> control = UpdateControl.noUpdate();
    return next == null ? control : control.rescheduleAfter(next);
  }

  /** The shortest of the given waits, nulls ignored; null when all are. */
  private static Duration earliest(Duration... waits) {
    Duration min = null;
    for (Duration d : waits) {
      if (d != null && (min == null || d.compareTo(min) < 0)) {
        min = d;
      }
    }
    return min;
  }

  /** Observe and validate, from the informer caches (plus one claim lookup for {@code modelCache.claimName}). */
  private Observed observe(InferenceService isvc, Context<InferenceService> context) {
    String ns = isvc.getMetadata().getNamespace();
    Model model = model(context, ns, isvc.getSpec().modelRef());
    String draftRef = ModelGates.draftRef(isvc);
    Model draft = draftRef == null ? null : model(context, ns, draftRef);
    Map<String, Integer> classes = priorityClasses(context);
    ClusterFacts facts = new ClusterFacts(settings.checkNodeCapacity() ? maxGpusPerNode(context) : null, classes);
    List<FieldProblem> problems = new ArrayList<>();
    if (model != null) {
      problems.addAll(IsvcValidator.validate(isvc, model, draft, facts));
    }
    userCacheClaim(isvc, context).ifPresent(problems::add);
    return new Observed(model, draft, ModelGates.of(isvc, model, draft), classes,
        context.getSecondaryResource(Deployment.class).orElse(null), problems);
  }

  /** Builds the objects and runs the workflow, unless a Model is not Ready or a problem is fatal. */
  private Applied apply(InferenceService isvc, Observed seen, Context<InferenceService> context) {
    if (seen.gate().state() != ModelGate.State.READY || seen.problems().stream().anyMatch(FieldProblem::fatal)) {
      return new Applied(null, seen.gate(), seen.live(), null, false, null, null);
    }
    ServingPlan plan;
    try {
      plan = ServingPlan.of(isvc, seen.model(), seen.draft(), settings);
    } catch (IllegalArgumentException e) {
      return new Applied(null, new ModelGate(ModelGate.State.FAILED, "spec.modelRef", "a Model is invalid: "
          + e.getMessage()), seen.live(), null, false, null, null);
    }
    Deployment live = seen.live();
    IsvcObjects objects = IsvcObjects.build(plan, live == null || live.getSpec() == null ? null
        : live.getSpec().getReplicas());
    RolloutGate.Decision rollout = RolloutGate.decide(isvc, plan.renderer().runtimeName(), objects.deployment(), live,
        List.copyOf(context.getSecondaryResources(Pod.class)), plan.containerPort(), deferredSince(isvc),
        clock.instant(), t -> idleProbe.probe(t.ip(), t.port(), t.check()));
    if (rollout != null && rollout.defer() && !deferred(isvc)) {
      events.normal(isvc, "RolloutDeferred", rollout.message());
    }
    IsvcContext.put(context, objects);
    IsvcContext.putDeferTemplate(context, rollout != null && rollout.defer());
    IsvcContext.putLiveVersion(context, live == null ? null : live.getMetadata().getResourceVersion());
    WorkflowReconcileResult result = context.managedWorkflowAndDependentResourceContext().reconcileManagedWorkflow();
    Integrations.Outcome integrations = Integrations.apply(context.getClient(), isvc, plan, objects.integrations());
    return new Applied(plan, seen.gate(), context.getSecondaryResource(Deployment.class).orElse(live),
        errors(result), onlyConflicts(result), rollout, integrations);
  }

  /** Queue bookkeeping, status aggregation, Events for new problems, and the status write when it changed. */
  private void record(InferenceService isvc, Observed seen, Applied applied, Context<InferenceService> context) {
    String ns = isvc.getMetadata().getNamespace();
    String name = isvc.getMetadata().getName();
    ServingPlan plan = applied.plan();
    Deployment live = applied.live();
    GpuPlan gpu = seen.model() == null ? GpuPlan.NONE : GpuPlan.of(isvc.getSpec(), seen.model());
    Set<String> gpuResources = new LinkedHashSet<>(GpuPlan.KNOWN_RESOURCES);
    gpuResources.add(gpu.resourceName());
    SchedulingInfo scheduling = plan == null ? null
        : SchedulingInfo.of(context.getSecondaryResources(Pod.class), gpuResources);
    if (plan != null) {
      StartupProtection.apply(context.getClient(), ns, StartupProtection.changes(isvc.getSpec(),
          context.getSecondaryResources(Pod.class)));
    }
    Integer effectivePriority = effectivePriority(isvc, seen.classes());
    boolean suspended = Boolean.TRUE.equals(isvc.getSpec().suspend());
    int desired = suspended ? 0 : plan == null ? (isvc.getSpec().replicas() == null ? 1 : isvc.getSpec().replicas())
        : plan.autoscaling() && live != null && live.getSpec() != null && live.getSpec().getReplicas() != null
            && live.getSpec().getReplicas() > 0 ? live.getSpec().getReplicas() : plan.replicas();
    boolean waiting = scheduling != null && SchedulingInfo.INSUFFICIENT_GPU.equals(scheduling.status())
        && desired > 0;
    int position = waiting
        ? queue.enqueue(new GpuQueue.Entry(ns, name, effectivePriority == null ? 0 : effectivePriority,
            created(isvc)))
        : queue.remove(ns, name);
    watchCapacity(ResourceID.fromResource(isvc), gpu.count() > 0 && (waiting || seen.problems().stream()
        .anyMatch(p -> p.reason().equals("ExceedsNodeCapacity"))));
    IsvcObservation observation = new IsvcObservation(name, generation(isvc), isvc.getStatus(), applied.gate(),
        seen.problems(), applied.error(), live, desired, scheduling, position, effectivePriority,
        plan == null ? previousEndpoint(isvc) : plan.endpointUrl(), gpu.count(), gpu.resourceName(), suspended,
        ServingModes.resolve(isvc.getSpec()).value(), plan == null ? null : acceleration(isvc, plan, gpu, context),
        applied.rollout(), applied.integrations());
    InferenceServiceStatus status = IsvcStatusAggregator.aggregate(observation, clock.instant());
    for (FieldProblem problem : IsvcStatusAggregator.newProblems(isvc.getStatus(),
        IsvcStatusAggregator.problems(observation))) {
      events.warning(isvc, problem.reason(), problem.describe());
    }
    if (!status.equals(isvc.getStatus())) {
      LOG.info("status isvc={}/{} phase={} ready={}/{} queue={} generation={}", ns, name,
          status.phase(), status.readyReplicas(), status.desiredReplicas(), status.queuePosition(),
          isvc.getMetadata().getGeneration());
      StatusWriter.write(isvc, status, InferenceService::new, context, settings.useSsa());
    }
  }

  /**
   * llama.cpp only: reads the start of one Ready pod's server log, once per pod, to learn where the model was loaded
   * ({@link AccelerationLog}); a GPU service that offloaded no layer gets a {@code RunningOnCPU} Warning. Null when
   * nothing new was read (the previous status value is kept) or the log is unavailable.
   */
  private AccelerationStatus acceleration(InferenceService isvc, ServingPlan plan, GpuPlan gpu,
      Context<InferenceService> context) {
    if (!"llama-server".equals(plan.renderer().containerName())) {
      return null;
    }
    ResourceID id = ResourceID.fromResource(isvc);
    for (Pod pod : context.getSecondaryResources(Pod.class)) {
      if (pod.getMetadata().getDeletionTimestamp() != null || !StartupProtection.ready(pod)) {
        continue;
      }
      String uid = pod.getMetadata().getUid();
      if (uid == null || uid.equals(accelerationReadFrom.put(id, uid))) {
        return null;
      }
      String ns = isvc.getMetadata().getNamespace();
      try {
        AccelerationStatus a = AccelerationLog.parse(Clients.withoutRetries(context.getClient()).pods().inNamespace(ns)
            .withName(pod.getMetadata().getName()).inContainer("llama-server").limitBytes(ACCELERATION_LOG_BYTES)
            .getLog());
        if (a != null && gpu.count() > 0 && Integer.valueOf(0).equals(a.layersOffloaded())) {
          events.warning(isvc, "RunningOnCPU", "pod " + pod.getMetadata().getName() + " asked for " + gpu.count()
              + " " + gpu.resourceName() + " but llama.cpp offloaded 0 of " + a.layersTotal()
              + " layers: the model runs on the CPU (check the image's GPU backend and the device plugin)");
        }
        return a;
      } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
        LOG.debug("server log unavailable isvc={}/{} pod={} error=\"{}\"", ns, isvc.getMetadata().getName(),
            pod.getMetadata().getName(), e.getMessage());
        return null;
      }
    }
    return null;
  }

  /** {@code maxPodLifetimeSeconds}: evicts at most one expired pod; returns when to look again, or null. */
  private Duration recycle(InferenceService isvc, Applied applied, Context<InferenceService> context) {
    if (applied.plan() == null || isvc.getSpec().maxPodLifetimeSeconds() == null) {
      return null;
    }
    PodRecycler.Decision d = PodRecycler.decide(isvc.getSpec().maxPodLifetimeSeconds(),
        context.getSecondaryResources(Pod.class), applied.live(), clock.instant());
    if (d.evict() != null && !idleForRecycling(isvc, applied, d, context)) {
      return RolloutGate.RECHECK;
    }
    if (d.evict() == null) {
      return d.recheckAfter();
    }
    ResourceID id = ResourceID.fromResource(isvc);
    Refusals refused = recycleRefusals.get(id);
    Instant now = clock.instant();
    if (refused != null && refused.pod().equals(d.evict()) && now.isBefore(refused.notBefore())) {
      return Duration.between(now, refused.notBefore());
    }
    String ns = isvc.getMetadata().getNamespace();
    boolean evicted;
    try {
      evicted = Clients.withoutRetries(context.getClient()).pods().inNamespace(ns).withName(d.evict()).evict();
    } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
      evicted = false;
      LOG.warn("recycle failed isvc={}/{} pod={} error=\"{}\"", ns, isvc.getMetadata().getName(), d.evict(),
          e.getMessage());
    }
    if (evicted) {
      recycleRefusals.remove(id);
      events.normal(isvc, "PodRecycled", "Evicted pod " + d.evict() + " after " + d.ageSeconds()
          + "s (maxPodLifetimeSeconds=" + isvc.getSpec().maxPodLifetimeSeconds() + ")");
      return d.recheckAfter();
    }
    int count = refused != null && refused.pod().equals(d.evict()) ? refused.count() + 1 : 1;
    PodRecycler.Backoff backoff = PodRecycler.afterRefusals(count);
    recycleRefusals.put(id, new Refusals(d.evict(), count, now.plus(backoff.delay())));
    LOG.info("recycle refused isvc={}/{} pod={} refusals={} retry_s={}", ns, isvc.getMetadata().getName(), d.evict(),
        count, backoff.delay().toSeconds());
    if (backoff.warn()) {
      events.warning(isvc, "RecycleBlocked", "Could not evict pod " + d.evict() + " (a PodDisruptionBudget or the "
          + "API refused" + (count > 1 ? ", " + count + " times in a row" : "") + "); retrying in "
          + backoff.delay().toSeconds() + "s");
    }
    return backoff.delay();
  }


  /** Refused evictions in a row for one service's expired pod, and when the next attempt is due. */
  private record Refusals(String pod, int count, Instant notBefore) {
  }

  /**
   * With {@code rolloutPolicy.waitForIdle}, an expired pod is evicted only once its server is idle — or when
   * {@code maxPodLifetimeIdleTimeoutSeconds} have passed since it expired (0: at once; unset: never without idle).
   */
  private boolean idleForRecycling(InferenceService isvc, Applied applied, PodRecycler.Decision d,
      Context<InferenceService> context) {
    IdleProbe.Check check = IdleProbe.checkFor(applied.plan().renderer().runtimeName(),
        isvc.getMetadata().getAnnotations());
    if (!RolloutGate.enabled(isvc) || check == null) {
      return true;
    }
    Long limit = isvc.getSpec().maxPodLifetimeIdleTimeoutSeconds();
    long overdue = d.ageSeconds() - isvc.getSpec().maxPodLifetimeSeconds();
    if (limit != null && overdue >= limit) {
      return true;
    }
    Pod pod = context.getSecondaryResources(Pod.class).stream()
        .filter(p -> d.evict().equals(p.getMetadata().getName())).findFirst().orElse(null);
    String ip = pod == null || pod.getStatus() == null ? null : pod.getStatus().getPodIP();
    if (ip == null || idleProbe.probe(ip, applied.plan().containerPort(), check) == IdleProbe.State.IDLE) {
      return true;
    }
    LOG.info("recycle waits isvc={}/{} pod={} reason=busy overdue_s={}", isvc.getMetadata().getNamespace(),
        isvc.getMetadata().getName(), d.evict(), overdue);
    return false;
  }

  private static boolean deferred(InferenceService isvc) {
    return deferredSince(isvc) != null;
  }

  /** When the current {@code RolloutDeferred=True} began, or null when no wait is under way. */
  private static Instant deferredSince(InferenceService isvc) {
    if (isvc.getStatus() == null || isvc.getStatus().conditions() == null) {
      return null;
    }
    return isvc.getStatus().conditions().stream()
        .filter(c -> IsvcStatusAggregator.ROLLOUT_DEFERRED.equals(c.getType()) && "True".equals(c.getStatus())
            && c.getLastTransitionTime() != null)
        .map(c -> Instant.parse(c.getLastTransitionTime())).findFirst().orElse(null);
  }

  /** The value of the PriorityClass the pods use; the tier's value when the class is not (yet) in the cluster. */
  private static Integer effectivePriority(InferenceService isvc, Map<String, Integer> classes) {
    String className = IsvcEventSources.priorityClassName(isvc);
    if (classes.containsKey(className)) {
      return classes.get(className);
    }
    PriorityTier tier = PriorityTier.byClassName(className);
    return tier == null ? null : tier.value();
  }

  @Override
  public DeleteControl cleanup(InferenceService isvc, Context<InferenceService> context) {
    queue.remove(isvc.getMetadata().getNamespace(), isvc.getMetadata().getName());
    capacityWatchers.remove(ResourceID.fromResource(isvc));
    accelerationReadFrom.remove(ResourceID.fromResource(isvc));
    recycleRefusals.remove(ResourceID.fromResource(isvc));
    LOG.info("deleted isvc={}/{}", isvc.getMetadata().getNamespace(), isvc.getMetadata().getName());
    return DeleteControl.defaultDelete();
  }

  private static boolean onlyConflicts(WorkflowReconcileResult result) {
    return result.erroredDependentsExist() && result.getErroredDependents().values().stream()
        .allMatch(InferenceServiceReconciler::isConflict);
  }

  private static boolean isConflict(Throwable e) {
    for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof io.fabric8.kubernetes.client.KubernetesClientException k && k.getCode() == 409) {
        return true;
      }
    }
    return false;
  }

  private static String errors(WorkflowReconcileResult result) {
    if (!result.erroredDependentsExist()) {
      return null;
    }
    return result.getErroredDependents().entrySet().stream()
        .map(e -> e.getKey().name() + ": " + rootMessage(e.getValue()))
        .collect(Collectors.joining("; "));
  }

  private static String rootMessage(Throwable e) {
    for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof io.fabric8.kubernetes.client.KubernetesClientException k && k.getStatus() != null
          && k.getStatus().getMessage() != null) {
        return k.getStatus().getMessage();
      }
    }
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
  }

  private static Model model(Context<InferenceService> context, String namespace, String name) {
    return context.getSecondaryResources(Model.class).stream()
        .filter(m -> name.equals(m.getMetadata().getName()) && namespace.equals(m.getMetadata().getNamespace()))
        .findFirst().orElse(null);
  }

  /** A {@code modelCache.claimName} that does not exist: the service cannot start and there is no fallback. */
  private static java.util.Optional<FieldProblem> userCacheClaim(InferenceService isvc,
      Context<InferenceService> context) {
    var cache = isvc.getSpec().modelCache();
    if (cache == null || cache.claimName() == null || cache.claimName().isBlank()) {
      return java.util.Optional.empty();
    }
    boolean exists = context.getClient().persistentVolumeClaims().inNamespace(isvc.getMetadata().getNamespace())
        .withName(cache.claimName()).get() != null;
    return exists ? java.util.Optional.empty() : java.util.Optional.of(FieldProblem.fatal(
        "spec.modelCache.claimName", "CacheClaimNotFound", "PersistentVolumeClaim " + cache.claimName()
            + " does not exist in namespace " + isvc.getMetadata().getNamespace()));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Integer> priorityClasses(Context<InferenceService> context) {
    var source = (InformerEventSource<PriorityClass, InferenceService>) context.eventSourceRetriever()
        .getEventSourceFor(PriorityClass.class, IsvcEventSources.PRIORITY_CLASSES);
    Map<String, Integer> classes = new HashMap<>();
    source.list(pc -> true).forEach(pc -> classes.put(pc.getMetadata().getName(), pc.getValue()));
    return classes;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Long> maxGpusPerNode(Context<InferenceService> context) {
    var source = (InformerEventSource<Node, InferenceService>) context.eventSourceRetriever()
        .getEventSourceFor(Node.class, IsvcEventSources.NODES);
    Map<String, Long> max = new HashMap<>();
    source.list(n -> n.getSpec() == null || !Boolean.TRUE.equals(n.getSpec().getUnschedulable())).forEach(node -> {
      if (node.getStatus() == null || node.getStatus().getAllocatable() == null) {
        return;
      }
      for (Map.Entry<String, Quantity> e : node.getStatus().getAllocatable().entrySet()) {
        if (e.getKey().contains("/")) {
          long count = e.getValue().getNumericalAmount().longValue();
          max.merge(e.getKey(), count, Math::max);
        }
      }
    });
    return max;
  }

  private void watchCapacity(ResourceID id, boolean interested) {
    if (interested) {
      capacityWatchers.add(id);
    } else {
      capacityWatchers.remove(id);
    }
  }

  private static long generation(InferenceService isvc) {
    return isvc.getMetadata().getGeneration() == null ? 0 : isvc.getMetadata().getGeneration();
  }

  private static Instant created(InferenceService isvc) {
    String ts = isvc.getMetadata().getCreationTimestamp();
    return ts == null ? Instant.EPOCH : Instant.parse(ts);
  }

  private static String previousEndpoint(InferenceService isvc) {
    return isvc.getStatus() == null ? null : isvc.getStatus().endpoint();
  }

  /** Services in the GPU queue, for tests and the CLI. */
  public GpuQueue queue() {
    return queue;
  }

  Set<ResourceID> capacityWatchers() {
    return new HashSet<>(capacityWatchers);
  }
}
