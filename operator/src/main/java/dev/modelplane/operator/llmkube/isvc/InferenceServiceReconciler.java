package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.InferenceServiceStatus;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.EventRecorder;
import dev.modelplane.operator.common.Reschedule;
import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.common.StatusWriter;
import dev.modelplane.operator.common.WorkflowErrors;
import dev.modelplane.operator.llmkube.isvc.IsvcObservation.ModelGate;
import dev.modelplane.operator.runtime.GpuPlan;
import dev.modelplane.operator.scheduling.GpuQueue;
import dev.modelplane.operator.scheduling.SchedulingInfo;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;
import io.javaoperatorsdk.operator.processing.dependent.workflow.WorkflowReconcileResult;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles LLMKube InferenceServices: observe (Model, live Deployment, pods, PriorityClasses, nodes) → validate →
 * reconcile the owned objects through the workflow → record status through {@link IsvcStatusAggregator}. Problems
 * with the spec become conditions and Warning Events, never exceptions. A service is looked at again on a timer only
 * when something is due: an API error (30 s), the next pod expiry ({@code maxPodLifetimeSeconds}), a rollout waiting
 * for idle servers (5 s), or an integration whose CRDs are missing (60 s). Deletion is {@link InferenceServiceFinalizer}'s.
 */
@ControllerConfiguration(name = InferenceServiceReconciler.NAME)
@Workflow(explicitInvocation = true, handleExceptionsInReconciler = true, dependents = {
    @Dependent(name = "cache-claim", type = CachePvcDependent.class,
        reconcilePrecondition = CachePvcDependent.Needed.class),
    @Dependent(name = "deployment", type = DeploymentDependent.class),
    @Dependent(name = "service", type = ServiceDependent.class),
    @Dependent(name = "hpa", type = HpaDependent.class, reconcilePrecondition = HpaDependent.Enabled.class)})
public class InferenceServiceReconciler implements Reconciler<InferenceService> {
  public static final String NAME = "llmkube-inferenceservice";
  private static final Logger LOG = LoggerFactory.getLogger(InferenceServiceReconciler.class);
  private static final Duration ERROR_RETRY = Duration.ofSeconds(30);
  private static final Duration CONFLICT_RETRY = Duration.ofMillis(500);
  /** A service the workload policy refuses is looked at again this often, so a namespace label takes effect. */
  private static final Duration POLICY_RECHECK = Duration.ofMinutes(1);

  private final OperatorSettings settings;
  private final EventRecorder events;
  private final Clock clock;
  private final SimpleInboundEventSource<InferenceService> queueEvents = new SimpleInboundEventSource<>("gpu-queue");
  private final GpuWaits gpuWaits;
  private final IdleProbe idleProbe = new IdleProbe(Duration.ofSeconds(2));
  private final AccelerationReader acceleration;
  private final ExpiredPodEvictor evictor;
  private final ReplicaSetNudge nudge;

  public InferenceServiceReconciler(OperatorSettings settings, GpuQueue queue, EventRecorder events, Clock clock) {
    this.settings = settings;
    this.events = events;
    this.clock = clock;
    this.gpuWaits = new GpuWaits(queue);
    this.acceleration = new AccelerationReader(events);
    this.evictor = new ExpiredPodEvictor(events, clock, idleProbe);
    this.nudge = new ReplicaSetNudge(clock);
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
      sources.add(IsvcEventSources.nodes(context, gpuWaits::capacityWatchers));
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
   * @param refused what the workload policy refuses ({@link IsvcPolicy}); nothing was applied then
   */
  private record Applied(ServingPlan plan, ModelGate gate, Deployment live, String error, boolean conflict,
      RolloutGate.Decision rollout, Integrations.Outcome integrations, List<FieldProblem> refused) {
    Applied(ServingPlan plan, ModelGate gate, Deployment live, String error, boolean conflict,
        RolloutGate.Decision rollout, Integrations.Outcome integrations) {
      this(plan, gate, live, error, conflict, rollout, integrations, List.of());
    }
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
    Duration next = Reschedule.earliest(evictor.evictExpired(isvc, applied.plan(), applied.live(),
            context.getSecondaryResources(Pod.class), context.getClient()),
        applied.integrations() == null ? null : applied.integrations().recheck(),
        applied.rollout() == null ? null : applied.rollout().recheck(),
        applied.error() == null ? null : ERROR_RETRY, nudge.nudge(applied.live(), context.getClient()),
        applied.refused().isEmpty() ? null : POLICY_RECHECK);
    UpdateControl<InferenceService> control = UpdateControl.noUpdate();
    return next == null ? control : control.rescheduleAfter(next);
  }


  /** Observe and validate, from the informer caches (plus one claim lookup for {@code modelCache.claimName}). */
  private Observed observe(InferenceService isvc, Context<InferenceService> context) {
    String ns = isvc.getMetadata().getNamespace();
    Model model = IsvcReferences.model(context, ns, isvc.getSpec().modelRef());
    String draftRef = ModelGates.draftRef(isvc);
    Model draft = draftRef == null ? null : IsvcReferences.model(context, ns, draftRef);
    ClusterFacts facts = ClusterFactsReader.read(context, settings.checkNodeCapacity());
    List<FieldProblem> problems = new ArrayList<>();
    if (model != null) {
      problems.addAll(IsvcValidator.validate(isvc, model, draft, facts));
    }
    IsvcReferences.missingCacheClaim(isvc, context.getClient()).ifPresent(problems::add);
    return new Observed(model, draft, ModelGates.of(isvc, model, draft), facts.priorityClasses(),
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
    List<FieldProblem> refused = IsvcPolicy.refusals(plan, objects, context.getClient());
    if (!refused.isEmpty()) {
      // Nothing of a refused service runs: what an earlier spec (or an earlier namespace label) let through goes.
      removeWorkload(isvc, context);
      return new Applied(null, seen.gate(), null, null, false, null, null, refused);
    }
    RolloutGate.Decision rollout = RolloutGate.decide(isvc, plan.renderer().runtimeName(), objects.deployment(), live,
        List.copyOf(context.getSecondaryResources(Pod.class)), plan.containerPort(), RolloutGate.deferredSince(isvc),
        clock.instant(), t -> idleProbe.probe(t.ip(), t.port(), t.check()));
    if (rollout != null && rollout.defer() && RolloutGate.deferredSince(isvc) == null) {
      events.normal(isvc, "RolloutDeferred", rollout.message());
    }
    IsvcContext.put(context, objects);
    IsvcContext.putDeferTemplate(context, rollout != null && rollout.defer());
    IsvcContext.putLiveVersion(context, live == null ? null : live.getMetadata().getResourceVersion());
    WorkflowReconcileResult result = context.managedWorkflowAndDependentResourceContext().reconcileManagedWorkflow();
    Integrations.Outcome integrations = Integrations.apply(context.getClient(), isvc, plan, objects.integrations());
    return new Applied(plan, seen.gate(), context.getSecondaryResource(Deployment.class).orElse(live),
        WorkflowErrors.describe(result), WorkflowErrors.onlyConflicts(result), rollout, integrations);
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
    Integer effectivePriority = GpuWaits.effectivePriority(isvc, seen.classes());
    boolean suspended = Boolean.TRUE.equals(isvc.getSpec().suspend());
    int desired = IsvcObservation.desiredReplicas(isvc, plan, live);
    boolean waiting = scheduling != null && SchedulingInfo.INSUFFICIENT_GPU.equals(scheduling.status())
        && desired > 0;
    int position = gpuWaits.track(isvc, waiting, effectivePriority, gpu.count() > 0 && (waiting
        || seen.problems().stream().anyMatch(p -> p.reason().equals("ExceedsNodeCapacity"))));
    List<FieldProblem> problems = new ArrayList<>(seen.problems());
    problems.addAll(applied.refused());
    IsvcObservation observation = new IsvcObservation(name, generation(isvc), isvc.getStatus(), applied.gate(),
        problems, applied.error(), live, desired, scheduling, position, effectivePriority,
        plan == null ? previousEndpoint(isvc) : plan.endpointUrl(), gpu.count(), gpu.resourceName(), suspended,
        LlmkubeServerSpec.mode(isvc.getSpec()).value(),
        plan == null ? null : acceleration.read(isvc, plan, gpu, context.getSecondaryResources(Pod.class),
            context.getClient()),
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

  /** Deletes the service's Deployment and Service, when they exist. */
  private static void removeWorkload(InferenceService isvc, Context<InferenceService> context) {
    String ns = isvc.getMetadata().getNamespace();
    String name = isvc.getMetadata().getName();
    if (context.getSecondaryResource(Deployment.class).isPresent()) {
      LOG.info("deleting deployment isvc={}/{} reason=PolicyRefused", ns, name);
      context.getClient().apps().deployments().inNamespace(ns).withName(name).delete();
    }
    if (context.getSecondaryResource(io.fabric8.kubernetes.api.model.Service.class).isPresent()) {
      context.getClient().services().inNamespace(ns).withName(ServingPlan.serviceName(name)).delete();
    }
  }

  /** Takes a deleted service out of the GPU queue and the per-service memories ({@link InferenceServiceFinalizer}). */
  void forget(InferenceService isvc) {
    gpuWaits.forget(isvc);
    acceleration.forget(ResourceID.fromResource(isvc));
    evictor.forget(ResourceID.fromResource(isvc));
    LOG.info("deleted isvc={}/{}", isvc.getMetadata().getNamespace(), isvc.getMetadata().getName());
  }

  private static long generation(InferenceService isvc) {
    return isvc.getMetadata().getGeneration() == null ? 0 : isvc.getMetadata().getGeneration();
  }

  private static String previousEndpoint(InferenceService isvc) {
    return isvc.getStatus() == null ? null : isvc.getStatus().endpoint();
  }

  /** Services in the GPU queue, for tests and the CLI. */
  public GpuQueue queue() {
    return gpuWaits.queue();
  }
}
