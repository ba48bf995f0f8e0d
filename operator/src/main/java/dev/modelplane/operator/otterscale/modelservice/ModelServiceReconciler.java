package dev.modelplane.operator.otterscale.modelservice;

import dev.modelplane.api.otterscale.v1alpha1.ModelService;
import dev.modelplane.api.otterscale.v1alpha1.ModelServicePhase;
import dev.modelplane.api.otterscale.v1alpha1.ModelServiceStatus;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.Conditions;
import dev.modelplane.operator.common.EventRecorder;
import dev.modelplane.operator.common.ObjectApplier;
import dev.modelplane.operator.common.Reschedule;
import dev.modelplane.operator.common.SpecOrAnnotationUpdates;
import dev.modelplane.operator.common.StatusWriter;
import dev.modelplane.operator.common.WorkloadPolicy;
import dev.modelplane.operator.prefixrouting.NamespacePolicies;
import dev.modelplane.operator.prefixrouting.PrecisePrefixStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles OtterScale ModelServices: plan ({@link ModelServicePlanner}) → apply the namespaced objects by
 * server-side apply, owned by the ModelService, and the picker's ClusterRoleBinding ({@link PickerClusterBinding},
 * never taking over another owner's) → delete what the spec or the settings no longer want → read the Deployments
 * and pods → record status ({@link ModelServiceStatusAggregator}). Kinds whose CRDs are missing (Gateway API, Istio,
 * Prometheus Operator) are named in a condition while the rest is reconciled, and looked at again every minute. The
 * finalizer {@code model.otterscale.io/epp-cluster-rbac} removes the ClusterRoleBinding, which no namespaced owner can
 * own.
 */
@ControllerConfiguration(name = ModelServiceReconciler.NAME, finalizerName = ModelServiceNames.FINALIZER,
    generationAwareEventProcessing = false, informer = @Informer(onUpdateFilter = SpecOrAnnotationUpdates.class))
public class ModelServiceReconciler implements Reconciler<ModelService>, Cleaner<ModelService> {
  public static final String NAME = "otterscale-modelservice";
  private static final Logger LOG = LoggerFactory.getLogger(ModelServiceReconciler.class);
  private static final Duration CONFLICT_RETRY = Duration.ofMillis(500);
  private static final Duration ERROR_RETRY = Duration.ofSeconds(30);
  private static final Duration NOT_INSTALLED_RECHECK = Duration.ofSeconds(60);
  /** Objects without an informer (Services, RBAC, routes, monitors) are put back this often if changed by hand. */
  private static final Duration POLICY_RECHECK = Duration.ofMinutes(1);
  private static final Duration DRIFT_RECHECK = Duration.ofMinutes(10);

  private final OperatorSettings settings;
  private final EventRecorder events;
  private final Clock clock;

  public ModelServiceReconciler(OperatorSettings settings, EventRecorder events, Clock clock) {
    this.settings = settings;
    this.events = events;
    this.clock = clock;
  }

  @Override
  public List<EventSource<?, ModelService>> prepareEventSources(EventSourceContext<ModelService> context) {
    ModelServiceEventSources.addIndexers(context.getPrimaryCache());
    return ModelServiceEventSources.all(context);
  }

  @Override
  public UpdateControl<ModelService> reconcile(ModelService ms, Context<ModelService> context) {
    String ns = ms.getMetadata().getNamespace();
    ModelServicePlan plan = PrecisePrefixBuilder.settle(
        ModelServicePlanner.plan(ms, settings.modelService(), settings.securityDefaults()),
        NamespacePolicies.in(context, ns));
    ObjectApplier applier = new ObjectApplier(context.getClient(), false);
    var refused = ModelServicePolicy.violations(new ModelServiceNames(ms.getMetadata().getName(), ns), plan.owned());
    if (!refused.isEmpty() && !WorkloadPolicy.lifted(context.getClient(), ns)) {
      return refuse(ms, refused, applier, context);
    }
    ObjectApplier.Result owned = applier.apply(ms, plan.owned(), Set.of());
    ModelServiceNames names = new ModelServiceNames(ms.getMetadata().getName(), ns);
    PickerClusterBinding.Outcome cluster = clusterBinding(context, names, plan);
    if (owned.conflict() || cluster.conflict()) {
      return UpdateControl.<ModelService>noUpdate().rescheduleAfter(CONFLICT_RETRY);
    }
    for (ModelServicePlan.ObjectRef ref : plan.unwanted()) {
      applier.deleteIfPresent(ref.apiVersion(), ref.kind(), ref.clusterScoped() ? null : ns, ref.name());
    }
    Set<String> missing = new LinkedHashSet<>(owned.missingKinds());
    Map<String, String> errors = new HashMap<>(owned.errors());
    if (cluster.error() != null) {
      errors.put("rbac.authorization.k8s.io/v1/ClusterRoleBinding/" + names.pickerClusterBinding(), cluster.error());
    }
    var deployments = context.getSecondaryResources(Deployment.class);
    var pods = context.getSecondaryResources(Pod.class);
    ModelServiceObservation seen = new ModelServiceObservation(
        find(deployments, names.serving(ModelServiceNames.DECODE)),
        ms.getSpec().prefill() == null ? null : find(deployments, names.serving(ModelServiceNames.PREFILL)),
        find(deployments, names.picker()),
        ModelServiceObservation.firstFailure(pods.stream()
            .filter(p -> names.service().equals(label(p, ModelServiceNames.MODEL))).toList()),
        ModelServiceObservation.firstFailure(pods.stream()
            .filter(p -> names.picker().equals(label(p, ModelServiceNames.INFERENCE_POOL))).toList()),
        cluster.refusal(), missing, errors, plan.precisePrefix());
    record(ms, ModelServiceStatusAggregator.aggregate(ms, seen, clock.instant()), context);
    Duration next = Reschedule.earliest(missing.isEmpty() ? null : NOT_INSTALLED_RECHECK,
        errors.isEmpty() ? null : ERROR_RETRY, DRIFT_RECHECK);
    return UpdateControl.<ModelService>noUpdate().rescheduleAfter(next);
  }

  /**
   * Applies nothing and deletes the serving Deployments (what an earlier spec or namespace label let through);
   * Failed with the reason {@code PolicyRefused}. Looked at again every minute, so a namespace labelled meanwhile
   * takes effect.
   */
  private UpdateControl<ModelService> refuse(ModelService ms, List<WorkloadPolicy.Violation> refused,
      ObjectApplier applier, Context<ModelService> context) {
    String ns = ms.getMetadata().getNamespace();
    ModelServiceNames names = new ModelServiceNames(ms.getMetadata().getName(), ns);
    for (String role : List.of(ModelServiceNames.DECODE, ModelServiceNames.PREFILL)) {
      applier.deleteIfPresent("apps/v1", "Deployment", ns, names.serving(role));
    }
    long generation = Objects.requireNonNullElse(ms.getMetadata().getGeneration(), 0L);
    String message = WorkloadPolicy.describe(refused);
    ModelServiceStatus status = new ModelServiceStatus(generation, ModelServicePhase.Failed, 0, 0,
        ms.getSpec().prefill() == null ? null : 0, ms.getSpec().prefill() == null ? null : 0,
        Conditions.set(ms.getStatus() == null ? null : ms.getStatus().conditions(), ModelServiceStatusAggregator.READY,
            Conditions.FALSE, WorkloadPolicy.REASON, message, generation, clock.instant()));
    record(ms, status, context);
    return UpdateControl.<ModelService>noUpdate().rescheduleAfter(POLICY_RECHECK);
  }

  @Override
  public DeleteControl cleanup(ModelService ms, Context<ModelService> context) {
    if (settings.modelService().metricsEndpointAuth()) {
      PickerClusterBinding.remove(context.getClient(),
          new ModelServiceNames(ms.getMetadata().getName(), ms.getMetadata().getNamespace()));
    }
    return DeleteControl.defaultDelete();
  }

  /**
   * The picker's ClusterRoleBinding when the plan has one, else its removal (and, either way, the removal of the
   * binding an earlier release made under OtterScale's name). Without metrics authentication — the setting of an
   * operator without cluster RBAC rights, e.g. one that serves a list of namespaces — cluster objects are not
   * touched.
   */
  private PickerClusterBinding.Outcome clusterBinding(Context<ModelService> context, ModelServiceNames names,
      ModelServicePlan plan) {
    if (!settings.modelService().metricsEndpointAuth()) {
      return PickerClusterBinding.Outcome.OK;
    }
    if (plan.clusterScoped().isEmpty()) {
      PickerClusterBinding.remove(context.getClient(), names);
      return PickerClusterBinding.Outcome.OK;
    }
    PickerClusterBinding.Outcome outcome = PickerClusterBinding.ensure(context.getClient(), names,
        (ClusterRoleBinding) plan.clusterScoped().get(0));
    PickerClusterBinding.removeLegacy(context.getClient(), names);
    return outcome;
  }

  private static Deployment find(Set<Deployment> deployments, String name) {
    return deployments.stream().filter(d -> name.equals(d.getMetadata().getName())).findFirst().orElse(null);
  }

  private static String label(Pod pod, String key) {
    return pod.getMetadata().getLabels() == null ? null : pod.getMetadata().getLabels().get(key);
  }

  /** Writes the status when it changed, with an Event when readiness or its reason changes. */
  private void record(ModelService ms, ModelServiceStatus status, Context<ModelService> context) {
    if (status.equals(ms.getStatus())) {
      return;
    }
    Condition was = Conditions.find(ms.getStatus() == null ? null : ms.getStatus().conditions(),
        ModelServiceStatusAggregator.READY);
    Condition now = Conditions.find(status.conditions(), ModelServiceStatusAggregator.READY);
    boolean changed = was == null || !Objects.equals(was.getStatus(), now.getStatus())
        || !Objects.equals(was.getReason(), now.getReason());
    if (changed && Conditions.TRUE.equals(now.getStatus())) {
      events.normal(ms, "Ready", "All serving replicas are ready");
    } else if (changed && WorkloadPolicy.REASON.equals(now.getReason())) {
      events.warning(ms, now.getReason(), now.getMessage());
    } else if (changed && (status.phase() == ModelServicePhase.Failed || "ReconcileError".equals(now.getReason()))) {
      events.warning(ms, now.getReason(), now.getMessage());
    }
    Condition precise = PrecisePrefixStatus.newProblem(ms.getStatus() == null ? null : ms.getStatus().conditions(),
        status.conditions());
    if (precise != null) {
      events.warning(ms, precise.getReason(), precise.getMessage());
    }
    LOG.atInfo().addKeyValue("modelservice", ms.getMetadata().getNamespace() + "/" + ms.getMetadata().getName())
        .addKeyValue("phase", status.phase()).addKeyValue("reason", now.getReason())
        .addKeyValue("generation", ms.getMetadata().getGeneration()).log("status");
    StatusWriter.write(ms, status, ModelService::new, context, settings.useSsa());
  }
}
