package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.InferenceServiceSpec;
import dev.modelplane.api.ome.v1beta1.InferenceServiceStatus;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.Conditions;
import dev.modelplane.operator.common.EventRecorder;
import dev.modelplane.operator.common.ObjectApplier;
import dev.modelplane.operator.common.Reschedule;
import dev.modelplane.operator.common.SpecOrAnnotationUpdates;
import dev.modelplane.operator.common.StatusWriter;
import dev.modelplane.operator.common.WorkloadPolicy;
import dev.modelplane.operator.ome.storage.ModelPaths;
import dev.modelplane.operator.prefixrouting.NamespacePolicies;
import dev.modelplane.operator.prefixrouting.PrecisePrefixStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles OME InferenceServices: observe (model, fine-tuned weight, runtimes, live workloads) → resolve the model
 * and choose the runtime → plan every declared component (merge, mode, model wiring, objects) → apply → record
 * status through {@link OmeStatusAggregator}. Anything that keeps the service from being served is a condition and
 * a Warning Event, never an exception. Objects are applied by server-side apply and owned by the service; the ones
 * it no longer wants (a removed component, a changed mode) are deleted. A service is looked at again on a timer only
 * while a workload kind without informer (LeaderWorkerSet, Knative) is not ready yet, when a CRD is missing, and
 * every half minute while it has a serverless component (Knative's traffic split and revisions feed its status).
 */
@ControllerConfiguration(name = OmeInferenceServiceReconciler.NAME, generationAwareEventProcessing = false,
    informer = @Informer(onUpdateFilter = SpecOrAnnotationUpdates.class))
public class OmeInferenceServiceReconciler implements Reconciler<InferenceService> {
  public static final String NAME = "ome-inferenceservice";
  /** Status annotation listing the objects this service applied, so removed ones can be deleted. */
  static final String OBJECTS_ANNOTATION = "modelplane.dev/applied-objects";
  private static final Logger LOG = LoggerFactory.getLogger(OmeInferenceServiceReconciler.class);
  private static final Duration CONFLICT_RETRY = Duration.ofMillis(500);
  private static final Duration ERROR_RETRY = Duration.ofSeconds(30);
  private static final Duration NOT_INSTALLED_RECHECK = Duration.ofSeconds(60);
  private static final Duration UNWATCHED_RECHECK = Duration.ofSeconds(10);
  private static final Duration SERVERLESS_RECHECK = Duration.ofSeconds(30);
  /** A service the workload policy refuses is looked at again this often, so a namespace label takes effect. */
  private static final Duration POLICY_RECHECK = Duration.ofMinutes(1);

  private final OperatorSettings settings;
  private final EventRecorder events;
  private final Clock clock;

  public OmeInferenceServiceReconciler(OperatorSettings settings, EventRecorder events, Clock clock) {
    this.settings = settings;
    this.events = events;
    this.clock = clock;
  }

  @Override
  public List<EventSource<?, InferenceService>> prepareEventSources(EventSourceContext<InferenceService> context) {
    OmeEventSources.addIndexers(context.getPrimaryCache());
    return OmeEventSources.all(context);
  }

  @Override
  public UpdateControl<InferenceService> reconcile(InferenceService isvc, Context<InferenceService> context) {
    String ns = isvc.getMetadata().getNamespace();
    InferenceServiceSpec spec = PredictorConversion.effective(isvc.getSpec());
    Set<String> previous = ObjectApplier.parse(annotation(isvc.getStatus()));
    ObjectApplier applier = new ObjectApplier(context.getClient());
    OmeStatusAggregator.Outcome outcome;
    Set<String> applied = previous;
    Duration next = null;
    OmeServingPlanner.Result planned = plan(isvc, spec, context);
    switch (planned) {
      case OmeServingPlanner.Blocked blocked -> outcome = blocked.blocked();
      case OmeServingPlanner.Planned plan when refused(plan.plan(), ns, context) instanceof String refusal -> {
        // Nothing of a refused service runs: what an earlier spec (or namespace label) let through is deleted.
        applied = applier.apply(isvc, List.of(), previous).applied();
        outcome = new OmeStatusAggregator.Blocked(OmeStatusAggregator.READY, WorkloadPolicy.REASON, refusal, null);
        next = POLICY_RECHECK;
      }
      case OmeServingPlanner.Planned plan -> {
        ObjectApplier.Result result = applier.apply(isvc, plan.plan().objects(), previous);
        if (result.conflict()) {
          LOG.atInfo().addKeyValue("isvc", ns + "/" + isvc.getMetadata().getName()).log("retry after conflict");
          return UpdateControl.<InferenceService>noUpdate().rescheduleAfter(CONFLICT_RETRY);
        }
        applied = result.applied();
        ComponentHealthReader.Health health = ComponentHealthReader.read(isvc, plan.plan(), result, context, settings);
        outcome = health.outcome();
        next = Reschedule.earliest(result.missingKinds().isEmpty() ? null : NOT_INSTALLED_RECHECK,
            result.errors().isEmpty() ? null : ERROR_RETRY, health.unwatchedPending() ? UNWATCHED_RECHECK : null,
            health.serverless() ? SERVERLESS_RECHECK : null);
      }
    }
    record(isvc, outcome, applied, context);
    UpdateControl<InferenceService> control = UpdateControl.noUpdate();
    return next == null ? control : control.rescheduleAfter(next);
  }

  /** What the workload policy refuses in the plan, described; null when nothing or the namespace lifts it. */
  private static String refused(OmePlan plan, String ns, Context<InferenceService> context) {
    var violations = OmePolicy.violations(plan);
    return violations.isEmpty() || WorkloadPolicy.lifted(context.getClient(), ns) ? null
        : WorkloadPolicy.describe(violations);
  }

  private OmeServingPlanner.Result plan(InferenceService isvc, InferenceServiceSpec spec,
      Context<InferenceService> context) {
    String ns = isvc.getMetadata().getNamespace();
    ModelResolution.Result model = ModelResolution.resolve(spec, ns,
        name -> OmeReferences.baseModel(context, ns, name), name -> OmeReferences.clusterBaseModel(context, name),
        name -> OmeReferences.fineTunedWeight(context, name), dirs(context));
    return switch (model) {
      case ModelResolution.Missing missing -> new OmeServingPlanner.Blocked(missing.blocked());
      case ModelResolution.Found found -> switch (OmeServingPlanner.plan(isvc, spec, found.model(),
          OmeReferences.servingRuntimes(context, ns), OmeReferences.clusterServingRuntimes(context), settings)) {
        case OmeServingPlanner.Planned planned -> new OmeServingPlanner.Planned(
            PreciseRouting.settle(planned.plan(), NamespacePolicies.in(context, ns)));
        case OmeServingPlanner.Blocked blocked -> blocked;
      };
    };
  }

  /** The node directory decision of a model, among every model the caches hold (read once per reconcile). */
  private java.util.function.Function<io.fabric8.kubernetes.api.model.HasMetadata, ModelPaths.Decision> dirs(
      Context<InferenceService> context) {
    ModelPaths paths = settings.modelStorage().paths();
    List<ModelPaths.Claimant> all = OmeReferences.allModels(context);
    return model -> paths.decide(ModelPaths.Claimant.of(model), all);
  }

  /** Writes the status when it changed, with an Event when readiness or the reason it is missing changes. */
  private void record(InferenceService isvc, OmeStatusAggregator.Outcome outcome, Set<String> applied,
      Context<InferenceService> context) {
    InferenceServiceStatus status = OmeStatusAggregator.aggregate(isvc, outcome, clock.instant());
    Map<String, String> annotations = new HashMap<>(status.annotations() == null ? Map.of() : status.annotations());
    if (applied.isEmpty()) {
      annotations.remove(OBJECTS_ANNOTATION);
    } else {
      annotations.put(OBJECTS_ANNOTATION, ObjectApplier.format(applied));
    }
    status = new InferenceServiceStatus(status.observedGeneration(), status.conditions(),
        annotations.isEmpty() ? null : annotations, status.url(), status.address(), status.components(),
        status.modelStatus());
    if (status.equals(isvc.getStatus())) {
      return;
    }
    announce(isvc, isvc.getStatus() == null ? null : isvc.getStatus().conditions(), status.conditions());
    Condition ready = Conditions.find(status.conditions(), OmeStatusAggregator.READY);
    LOG.atInfo().addKeyValue("isvc", isvc.getMetadata().getNamespace() + "/" + isvc.getMetadata().getName())
        .addKeyValue("ready", ready == null ? null : ready.getStatus())
        .addKeyValue("reason", ready == null ? null : ready.getReason())
        .addKeyValue("generation", isvc.getMetadata().getGeneration()).log("status");
    StatusWriter.write(isvc, status, InferenceService::new, context, settings.useSsa());
  }

  private void announce(InferenceService isvc, List<Condition> before, List<Condition> after) {
    Condition precise = PrecisePrefixStatus.newProblem(before, after);
    if (precise != null) {
      events.warning(isvc, precise.getReason(), precise.getMessage());
    }
    Condition was = Conditions.find(before, OmeStatusAggregator.READY);
    Condition now = Conditions.find(after, OmeStatusAggregator.READY);
    if (now == null || was != null && Objects.equals(was.getStatus(), now.getStatus())
        && Objects.equals(was.getReason(), now.getReason())) {
      return;
    }
    if (Conditions.TRUE.equals(now.getStatus())) {
      events.normal(isvc, "InferenceServiceReady", "every component is ready");
    } else if (!"ComponentsNotReady".equals(now.getReason())) {
      // Components starting up is normal; a service that cannot be served as written is worth a Warning.
      events.warning(isvc, now.getReason(), now.getMessage());
    }
  }

  private static String annotation(InferenceServiceStatus status) {
    return status == null || status.annotations() == null ? null : status.annotations().get(OBJECTS_ANNOTATION);
  }

}
