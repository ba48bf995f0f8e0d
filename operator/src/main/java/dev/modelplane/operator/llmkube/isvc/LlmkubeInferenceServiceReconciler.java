package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.InferenceServiceStatus;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.EventRecorder;
import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.common.Reschedule;
import dev.modelplane.operator.common.StatusWriter;
import dev.modelplane.operator.common.WorkflowErrors;
import dev.modelplane.operator.llmkube.isvc.IsvcObservation.ModelGate;
import dev.modelplane.operator.llmkube.runtime.GpuPlan;
import dev.modelplane.operator.scheduling.GpuQueue;
import dev.modelplane.operator.scheduling.SchedulingInfo;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles LLMKube InferenceServices in four steps. <em>Observe</em> reads: the Model, live Deployment, pods,
 * PriorityClasses and nodes from the caches, the claim and namespace lookups, the idle probes and a new pod's server
 * log; it validates and plans, but writes nothing. <em>Apply</em> writes: the owned objects through the workflow (or
 * the removal of a refused service's workload), the integrations, startup protection on the pods, the GPU queue, an
 * expired pod's eviction and a failing ReplicaSet's nudge. <em>Record</em> builds the status through
 * {@link IsvcStatusAggregator} and calls nothing; the status is then written when it changed, with a Warning Event
 * per new problem. Problems with the spec become conditions and Warning Events, never exceptions. A service is
 * looked at again on a timer only when something is due: an API error (30 s), the next pod expiry
 * ({@code maxPodLifetimeSeconds}), a rollout waiting for idle servers (5 s), or an integration whose CRDs are missing
 * (60 s). Deletion is {@link InferenceServiceFinalizer}'s.
 */
@ControllerConfiguration(name = LlmkubeInferenceServiceReconciler.NAME)
@Workflow(explicitInvocation = true, handleExceptionsInReconciler = true, dependents = {
    @Dependent(name = "cache-claim", type = CachePvcDependent.class,
        reconcilePrecondition = CachePvcDependent.Needed.class),
    @Dependent(name = "deployment", type = DeploymentDependent.class),
    @Dependent(name = "service", type = ServiceDependent.class),
    @Dependent(name = "hpa", type = HpaDependent.class, reconcilePrecondition = HpaDependent.Enabled.class)})
public class LlmkubeInferenceServiceReconciler implements Reconciler<InferenceService> {
  public static final String NAME = "llmkube-inferenceservice";
  private static final Logger LOG = LoggerFactory.getLogger(LlmkubeInferenceServiceReconciler.class);
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

  public LlmkubeInferenceServiceReconciler(OperatorSettings settings, GpuQueue queue, EventRecorder events,
      Clock clock) {
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
   * What observe found, before anything was written.
   *
   * @param facts what the status is built from
   * @param live the live Deployment, or null
   * @param pods the service's pods
   * @param gpu the GPUs each pod asks for
   * @param plan what to apply, or null when nothing is (a Model not Ready or invalid, a fatal problem, a refusal)
   * @param objects the objects built from the plan, or null
   * @param refused the workload policy refuses the service ({@link IsvcPolicy}): what runs of it goes
   * @param reading a new Ready pod's server log, or null
   */
  private record Seen(IsvcObservation.Observed facts, Deployment live, List<Pod> pods, GpuPlan gpu, ServingPlan plan,
      IsvcObjects objects, boolean refused, AccelerationReader.Reading reading) {
  }

  /**
   * The plan, as far as one could be made.
   *
   * @param plan the plan, or null
   * @param objects the objects built from it, or null
   * @param gate the Model gate (FAILED when a Model's source turned out invalid)
   * @param refusals what the workload policy refuses of the plan
   */
  private record Planned(ServingPlan plan, IsvcObjects objects, ModelGate gate, List<FieldProblem> refusals) {
  }

  /**
   * What apply did.
   *
   * @param facts what the status is built from; null after a conflict
   * @param conflict the objects changed under us: run again shortly, record nothing
   * @param recycleAgain when the expired-pod check wants another look, or null
   * @param nudgeAgain when the ReplicaSet nudge wants another look, or null
   */
  private record Done(IsvcObservation.Applied facts, boolean conflict, Duration recycleAgain, Duration nudgeAgain) {
    static final Done CONFLICT = new Done(null, true, null, null);
  }

  /**
   * The status to write and the problems to announce.
   *
   * @param status the whole status
   * @param newProblems problems not reported before: one Warning Event each
   */
  private record Recorded(InferenceServiceStatus status, List<FieldProblem> newProblems) {
  }

  @Override
  public UpdateControl<InferenceService> reconcile(InferenceService isvc, Context<InferenceService> context) {
    Seen seen = observe(isvc, context);
    Done done = apply(isvc, seen, context);
    if (done.conflict()) {
      LOG.info("retry isvc={}/{} reason=conflict", isvc.getMetadata().getNamespace(), isvc.getMetadata().getName());
      return UpdateControl.<InferenceService>noUpdate().rescheduleAfter(CONFLICT_RETRY);
    }
    writeStatus(isvc, record(isvc, seen, done, clock.instant()), context);
    Duration next = Reschedule.earliest(done.recycleAgain(),
        done.facts().integrations() == null ? null : done.facts().integrations().recheck(),
        seen.facts().rollout() == null ? null : seen.facts().rollout().recheck(),
        done.facts().reconcileError() == null ? null : ERROR_RETRY, done.nudgeAgain(),
        seen.refused() ? POLICY_RECHECK : null);
    UpdateControl<InferenceService> control = UpdateControl.noUpdate();
    return next == null ? control : control.rescheduleAfter(next);
  }

  /**
   * Reads, validates and plans; writes nothing. Besides the informer caches it looks up the claim of
   * {@code modelCache.claimName} and the namespace's policy label, probes the servers' idleness
   * ({@code rolloutPolicy.waitForIdle}) and reads a new Ready pod's server log.
   */
  private Seen observe(InferenceService isvc, Context<InferenceService> context) {
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
    Deployment live = context.getSecondaryResource(Deployment.class).orElse(null);
    List<Pod> pods = List.copyOf(context.getSecondaryResources(Pod.class));
    Planned planned = plan(isvc, model, draft, problems, live, context);
    ServingPlan plan = planned.refusals().isEmpty() ? planned.plan() : null;
    RolloutGate.Decision rollout = plan == null ? null : RolloutGate.decide(isvc, plan.renderer().runtimeName(),
        planned.objects().deployment(), live, pods, plan.containerPort(), RolloutGate.deferredSince(isvc),
        clock.instant(), t -> idleProbe.probe(t.ip(), t.port(), t.check()));
    AccelerationReader.Reading reading = plan == null ? null
        : acceleration.read(isvc, plan, pods, context.getClient());
    GpuPlan gpu = model == null ? GpuPlan.NONE : GpuPlan.of(isvc.getSpec(), model);
    Set<String> gpuResources = new LinkedHashSet<>(GpuPlan.KNOWN_RESOURCES);
    gpuResources.add(gpu.resourceName());
    problems.addAll(planned.refusals());
    IsvcObservation.Observed observed = new IsvcObservation.Observed(planned.gate(), problems,
        plan == null ? null : SchedulingInfo.of(pods, gpuResources),
        GpuWaits.effectivePriority(isvc, facts.priorityClasses()),
        plan == null ? previousEndpoint(isvc) : plan.endpointUrl(), gpu.count(), gpu.resourceName(),
        Boolean.TRUE.equals(isvc.getSpec().suspend()), LlmkubeServerSpec.mode(isvc.getSpec()).value(),
        reading == null ? null : reading.status(), rollout);
    return new Seen(observed, live, pods, gpu, plan, plan == null ? null : planned.objects(),
        !planned.refusals().isEmpty(), reading);
  }

  /** The plan and its objects, unless a Model is not Ready or a problem is fatal; then what the policy refuses. */
  private Planned plan(InferenceService isvc, Model model, Model draft, List<FieldProblem> problems, Deployment live,
      Context<InferenceService> context) {
    ModelGate gate = ModelGates.of(isvc, model, draft);
    if (gate.state() != ModelGate.State.READY || problems.stream().anyMatch(FieldProblem::fatal)) {
      return new Planned(null, null, gate, List.of());
    }
    ServingPlan plan;
    try {
      plan = ServingPlan.of(isvc, model, draft, settings);
    } catch (IllegalArgumentException e) {
      return new Planned(null, null, new ModelGate(ModelGate.State.FAILED, "spec.modelRef", "a Model is invalid: "
          + e.getMessage()), List.of());
    }
    IsvcObjects objects = IsvcObjects.build(plan, live == null || live.getSpec() == null ? null
        : live.getSpec().getReplicas());
    return new Planned(plan, objects, gate, IsvcPolicy.refusals(plan, objects, context.getClient()));
  }

  /**
   * Writes: the owned objects through the workflow (or, for a refused service, the removal of its workload), the
   * integrations, startup protection on the pods and what a new server log tells; then the GPU queue, the eviction
   * of an expired pod and the nudge of a ReplicaSet whose pods are refused.
   */
  private Done apply(InferenceService isvc, Seen seen, Context<InferenceService> context) {
    KubernetesClient client = context.getClient();
    Deployment live = seen.live();
    String error = null;
    IntegrationApplier.Outcome integrations = null;
    if (seen.refused()) {
      // Nothing of a refused service runs: what an earlier spec (or an earlier namespace label) let through goes.
      removeWorkload(isvc, context);
      live = null;
    } else if (seen.plan() != null) {
      RolloutGate.Decision rollout = seen.facts().rollout();
      if (rollout != null && rollout.defer() && RolloutGate.deferredSince(isvc) == null) {
        events.normal(isvc, "RolloutDeferred", rollout.message());
      }
      IsvcContext.put(context, seen.objects());
      IsvcContext.putDeferTemplate(context, rollout != null && rollout.defer());
      IsvcContext.putLiveVersion(context, live == null ? null : live.getMetadata().getResourceVersion());
      WorkflowReconcileResult result = context.managedWorkflowAndDependentResourceContext().reconcileManagedWorkflow();
      integrations = IntegrationApplier.apply(client, isvc, seen.plan(), seen.objects().integrations());
      if (WorkflowErrors.onlyConflicts(result)) {
        return Done.CONFLICT;
      }
      live = context.getSecondaryResource(Deployment.class).orElse(live);
      error = WorkflowErrors.describe(result);
      StartupProtection.apply(client, isvc.getMetadata().getNamespace(),
          StartupProtection.changes(isvc.getSpec(), seen.pods()));
      if (seen.reading() != null) {
        acceleration.remember(isvc, seen.reading(), seen.gpu());
      }
    }
    int desired = IsvcObservation.desiredReplicas(isvc, seen.plan(), live);
    boolean waiting = seen.facts().waitingForGpu() && desired > 0;
    int position = gpuWaits.track(isvc, waiting, seen.facts().effectivePriority(), seen.gpu().count() > 0 && (waiting
        || seen.facts().problems().stream().anyMatch(p -> p.reason().equals("ExceedsNodeCapacity"))));
    return new Done(new IsvcObservation.Applied(live, error, desired, position, integrations), false,
        evictor.evictExpired(isvc, seen.plan(), live, seen.pods(), client), nudge.nudge(live, client));
  }

  /** Builds the status and picks the problems not reported before; pure. */
  private static Recorded record(InferenceService isvc, Seen seen, Done done, Instant now) {
    IsvcObservation observation = new IsvcObservation(isvc.getMetadata().getName(), generation(isvc),
        isvc.getStatus(), seen.facts(), done.facts());
    return new Recorded(IsvcStatusAggregator.aggregate(observation, now),
        IsvcStatusAggregator.newProblems(isvc.getStatus(), IsvcStatusAggregator.problems(observation)));
  }

  /** One Warning Event per new problem, then the status, when it changed. */
  private void writeStatus(InferenceService isvc, Recorded recorded, Context<InferenceService> context) {
    for (FieldProblem problem : recorded.newProblems()) {
      events.warning(isvc, problem.reason(), problem.describe());
    }
    InferenceServiceStatus status = recorded.status();
    if (!status.equals(isvc.getStatus())) {
      LOG.info("status isvc={}/{} phase={} ready={}/{} queue={} generation={}", isvc.getMetadata().getNamespace(),
          isvc.getMetadata().getName(), status.phase(), status.readyReplicas(), status.desiredReplicas(),
          status.queuePosition(), isvc.getMetadata().getGeneration());
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
