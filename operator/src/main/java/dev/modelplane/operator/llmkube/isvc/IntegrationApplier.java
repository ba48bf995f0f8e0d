package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.GatewayStatus;
import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.InferenceServiceStatus;
import dev.modelplane.operator.common.OperatorLabels;
import dev.modelplane.operator.llmkube.IsvcLabels;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the {@link IntegrationBuilder} objects of a service (server-side apply, owned by the InferenceService so
 * they go with it), removes the ones it no longer asks for, and reports the outcome as the {@code SLOReady} and
 * {@code GatewayReady} conditions and {@code status.gateway}. A missing CRD is a condition, never an error: the
 * service itself is served either way, and the operator looks again every minute.
 */
public final class IntegrationApplier {
  private static final Logger LOG = LoggerFactory.getLogger(IntegrationApplier.class);
  static final String FIELD_MANAGER = "modelplane-operator";
  static final String SLO_READY = "SLOReady";
  static final String GATEWAY_READY = "GatewayReady";
  /** How soon a service whose integration CRDs are missing is looked at again. */
  static final Duration NOT_INSTALLED_RECHECK = Duration.ofSeconds(60);

  private IntegrationApplier() {
  }

  /**
   * One condition.
   *
   * @param ready the condition's status
   * @param reason CamelCase reason
   * @param message what happened
   */
  public record State(boolean ready, String reason, String message) {
  }

  /**
   * The outcome for one service.
   *
   * @param slo the SLOReady condition, or null when the service has no {@code slo}
   * @param gateway the GatewayReady condition, or null when gateway exposure is off
   * @param gatewayStatus {@code status.gateway}, or null
   * @param recheck when to look again, or null
   */
  public record Outcome(State slo, State gateway, GatewayStatus gatewayStatus, Duration recheck) {
    public static final Outcome NONE = new Outcome(null, null, null, null);
  }

  /**
   * @param objects the service's integration objects, from {@link IsvcObjects#integrations()}
   */
  static Outcome apply(KubernetesClient client, InferenceService isvc, ServingPlan plan,
      List<GenericKubernetesResource> objects) {
    GenericKubernetesResource slo = objects.stream()
        .filter(o -> o.getKind().equals(IntegrationBuilder.SLO.getKind())).findFirst().orElse(null);
    List<GenericKubernetesResource> gateway = objects.stream()
        .filter(o -> !o.getKind().equals(IntegrationBuilder.SLO.getKind())).toList();
    boolean wantsSlo = plan.spec().slo() != null;
    boolean wantsGateway = IntegrationBuilder.gatewayEnabled(plan.spec());
    if (!wantsSlo && !wantsGateway && !usedBefore(isvc.getStatus())) {
      return Outcome.NONE;
    }
    Set<String> desired = new HashSet<>();
    State sloState = null;
    if (wantsSlo) {
      if (!plan.settings().pyrraSlo()) {
        sloState = new State(false, "PyrraDisabled", "the operator runs without --enable-pyrra-slo, so no "
            + "ServiceLevelObjective is created");
      } else if (slo == null) {
        sloState = new State(false, "UnsupportedIndicator", "indicator latency needs a request-latency histogram, "
            + "which only the vllm runtime exports; runtime " + plan.renderer().runtimeName() + " has none");
      } else {
        desired.add(key(IntegrationBuilder.SLO, slo.getMetadata().getName()));
        String error = applyOne(client, isvc, IntegrationBuilder.SLO, slo);
        sloState = error == null ? new State(true, "Created", "ServiceLevelObjective " + slo.getMetadata().getName()
            + " (target " + plan.spec().slo().objective() + "%)")
            : NOT_INSTALLED.equals(error) ? new State(false, "PyrraNotInstalled", "the CRD "
                + IntegrationBuilder.SLO.getPlural() + "." + IntegrationBuilder.SLO.getGroup() + " is not installed")
            : new State(false, "ApplyFailed", error);
      }
    }
    State gatewayState = null;
    GatewayStatus gatewayStatus = null;
    if (wantsGateway) {
      List<String> missing = new ArrayList<>();
      List<String> errors = new ArrayList<>();
      for (GenericKubernetesResource object : gateway) {
        ResourceDefinitionContext kind = kindOf(object);
        desired.add(key(kind, object.getMetadata().getName()));
        String error = applyOne(client, isvc, kind, object);
        if (NOT_INSTALLED.equals(error)) {
          missing.add(kind.getPlural() + "." + kind.getGroup());
        } else if (error != null) {
          errors.add(kind.getKind() + ": " + error);
        }
      }
      String modelName = IntegrationBuilder.modelName(plan.name(), plan.spec());
      var ref = plan.spec().endpoint().gateway().gatewayRef();
      String gatewayName = (ref.namespace() == null || ref.namespace().isBlank() ? plan.namespace() : ref.namespace())
          + "/" + ref.name();
      if (!missing.isEmpty()) {
        gatewayState = new State(false, "GatewayCRDsNotInstalled", "Envoy AI Gateway is not installed (missing CRDs: "
            + String.join(", ", missing) + ")");
      } else if (!errors.isEmpty()) {
        gatewayState = new State(false, "ApplyFailed", String.join("; ", errors));
        gatewayStatus = new GatewayStatus(false, modelName, null, null);
      } else {
        gatewayState = new State(true, "RouteReady", "AIGatewayRoute " + plan.name() + " on Gateway " + gatewayName
            + " sends model " + modelName + " to this service");
        gatewayStatus = new GatewayStatus(true, modelName, null, null);
      }
    }
    removeOthers(client, isvc, desired);
    boolean notInstalled = sloState != null && sloState.reason().equals("PyrraNotInstalled")
        || gatewayState != null && gatewayState.reason().equals("GatewayCRDsNotInstalled");
    return new Outcome(sloState, gatewayState, gatewayStatus, notInstalled ? NOT_INSTALLED_RECHECK : null);
  }

  private static final String NOT_INSTALLED = "not-installed";

  /** Applies one object; null on success, {@link #NOT_INSTALLED} when its CRD is missing, else the error. */
  private static String applyOne(KubernetesClient client, InferenceService isvc, ResourceDefinitionContext kind,
      GenericKubernetesResource object) {
    object.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder()
        .withApiVersion(isvc.getApiVersion()).withKind(isvc.getKind()).withName(isvc.getMetadata().getName())
        .withUid(isvc.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true).build()));
    try {
      client.genericKubernetesResources(kind).inNamespace(object.getMetadata().getNamespace()).resource(object)
          .fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
      return null;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return NOT_INSTALLED;
      }
      LOG.warn("apply failed isvc={}/{} kind={} error=\"{}\"", isvc.getMetadata().getNamespace(),
          isvc.getMetadata().getName(), kind.getKind(), e.getMessage());
      return e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
          : e.getMessage();
    }
  }

  /** Deletes this service's integration objects that are no longer desired (kinds whose CRD is missing are skipped). */
  private static void removeOthers(KubernetesClient client, InferenceService isvc, Set<String> desired) {
    String ns = isvc.getMetadata().getNamespace();
    for (ResourceDefinitionContext kind : IntegrationBuilder.KINDS) {
      try {
        for (GenericKubernetesResource r : client.genericKubernetesResources(kind).inNamespace(ns)
            .withLabel(IsvcLabels.SERVICE, isvc.getMetadata().getName())
            .withLabel(OperatorLabels.MANAGED_BY, OperatorLabels.MANAGED_BY_VALUE).list().getItems()) {
          if (!desired.contains(key(kind, r.getMetadata().getName()))) {
            client.genericKubernetesResources(kind).inNamespace(ns).withName(r.getMetadata().getName()).delete();
            LOG.info("deleted isvc={}/{} kind={} name={}", ns, isvc.getMetadata().getName(), kind.getKind(),
                r.getMetadata().getName());
          }
        }
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404) {
          LOG.warn("clean-up failed isvc={}/{} kind={} error=\"{}\"", ns, isvc.getMetadata().getName(),
              kind.getKind(), e.getMessage());
        }
      }
    }
  }

  /** Whether an earlier reconcile reported an integration, so its objects may need removing. */
  private static boolean usedBefore(InferenceServiceStatus status) {
    return status != null && (status.gateway() != null || status.conditions() != null && status.conditions().stream()
        .anyMatch(c -> SLO_READY.equals(c.getType()) || GATEWAY_READY.equals(c.getType())));
  }

  private static ResourceDefinitionContext kindOf(GenericKubernetesResource object) {
    return IntegrationBuilder.KINDS.stream().filter(k -> k.getKind().equals(object.getKind())).findFirst()
        .orElseThrow();
  }

  private static String key(ResourceDefinitionContext kind, String name) {
    return kind.getKind() + "/" + name;
  }
}
