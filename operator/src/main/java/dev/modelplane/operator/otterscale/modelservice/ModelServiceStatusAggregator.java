package dev.modelplane.operator.otterscale.modelservice;

import dev.modelplane.api.otterscale.v1alpha1.ModelService;
import dev.modelplane.api.otterscale.v1alpha1.ModelServicePhase;
import dev.modelplane.api.otterscale.v1alpha1.ModelServiceStatus;
import dev.modelplane.operator.common.Conditions;
import dev.modelplane.operator.prefixrouting.PrecisePrefixStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * A ModelService's status from what was observed, in one place: OtterScale's phases and {@code Ready} condition
 * (Pending while the decode Deployment is missing, Running while serving replicas start, Ready when all are), with
 * what upstream leaves out — {@code Failed} when a serving or picker pod is stuck (crash loop, image pull, config
 * error) naming the pod, the picker's readiness counted before Ready, and Ready false with reason
 * {@code ClusterBindingConflict} when the picker's ClusterRoleBinding name is another owner's. A second condition,
 * {@code OptionalKindsInstalled}, names the Gateway API, Istio or Prometheus Operator kinds that are not installed; a
 * third, {@value PrecisePrefixStatus#CONDITION}, is present while the picker's configuration uses precise prefix-cache
 * routing (or its annotation cannot be read), False when a setting contradicts the scorer.
 */
public final class ModelServiceStatusAggregator {
  public static final String READY = "Ready";
  public static final String OPTIONAL_KINDS = "OptionalKindsInstalled";
  /** Ready's reason when the picker's ClusterRoleBinding name is taken by another owner's object. */
  public static final String CLUSTER_BINDING_CONFLICT = "ClusterBindingConflict";

  private ModelServiceStatusAggregator() {
  }

  public static ModelServiceStatus aggregate(ModelService ms, ModelServiceObservation seen, Instant now) {
    long generation = Objects.requireNonNullElse(ms.getMetadata().getGeneration(), 0L);
    List<Condition> previous = ms.getStatus() == null ? null : ms.getStatus().conditions();
    int decodeDesired = desired(seen.decode());
    int decodeReady = ready(seen.decode());
    int prefillDesired = desired(seen.prefill());
    int prefillReady = ready(seen.prefill());
    int desired = decodeDesired + prefillDesired;
    int readyTotal = decodeReady + prefillReady;
    ModelServicePhase phase;
    String status = Conditions.FALSE;
    String reason;
    String message;
    if (seen.decode() == null) {
      phase = ModelServicePhase.Pending;
      reason = "DeploymentNotFound";
      message = "Decode Deployment has not been created yet";
    } else if (seen.servingFailure() != null) {
      phase = ModelServicePhase.Failed;
      reason = "ServingPodsFailing";
      message = "a serving pod cannot run: " + seen.servingFailure();
    } else if (seen.pickerFailure() != null) {
      phase = ModelServicePhase.Failed;
      reason = "EndpointPickerFailing";
      message = "an endpoint picker pod cannot run: " + seen.pickerFailure();
    } else if (readyTotal == 0 && desired > 0) {
      phase = ModelServicePhase.Running;
      reason = "PodsStarting";
      message = "Waiting for serving pods to become ready";
    } else if (readyTotal < desired) {
      phase = ModelServicePhase.Running;
      reason = "PartiallyReady";
      message = readyTotal + "/" + desired + " replicas ready";
    } else if (seen.picker() == null || ready(seen.picker()) < Math.min(1, desired(seen.picker()))) {
      phase = ModelServicePhase.Running;
      reason = "EndpointPickerNotReady";
      message = "serving replicas are ready, the endpoint picker is not yet";
    } else {
      phase = ModelServicePhase.Ready;
      status = Conditions.TRUE;
      reason = "AllReplicasReady";
      message = "All " + readyTotal + " replicas are ready";
    }
    if (seen.clusterBindingRefusal() != null) {
      status = Conditions.FALSE;
      reason = CLUSTER_BINDING_CONFLICT;
      message = seen.clusterBindingRefusal();
    }
    if (!seen.errors().isEmpty()) {
      String first = new TreeSet<>(seen.errors().keySet()).first();
      status = Conditions.FALSE;
      reason = "ReconcileError";
      message = first + ": " + seen.errors().get(first);
    }
    List<Condition> conditions = Conditions.set(previous, READY, status, reason, message, generation, now);
    if (seen.missingKinds().isEmpty()) {
      conditions = Conditions.remove(conditions, OPTIONAL_KINDS);
    } else {
      conditions = Conditions.set(conditions, OPTIONAL_KINDS, Conditions.FALSE, "CRDNotInstalled",
          "not installed: " + String.join(", ", new TreeSet<>(seen.missingKinds())) + "; everything else is "
              + "reconciled, and the operator looks again every minute", generation, now);
    }
    PrecisePrefixStatus precise = seen.precisePrefix();
    conditions = precise == null ? Conditions.remove(conditions, PrecisePrefixStatus.CONDITION)
        : Conditions.set(conditions, PrecisePrefixStatus.CONDITION, precise.ok() ? Conditions.TRUE : Conditions.FALSE,
            precise.reason(), precise.message(), generation, now);
    return new ModelServiceStatus(generation, phase, decodeReady, decodeDesired, seen.prefill() == null ? null
        : prefillReady, seen.prefill() == null ? null : prefillDesired, conditions);
  }

  private static int desired(Deployment d) {
    return d == null || d.getSpec() == null || d.getSpec().getReplicas() == null ? 0 : d.getSpec().getReplicas();
  }

  private static int ready(Deployment d) {
    return d == null || d.getStatus() == null || d.getStatus().getReadyReplicas() == null ? 0
        : d.getStatus().getReadyReplicas();
  }
}
