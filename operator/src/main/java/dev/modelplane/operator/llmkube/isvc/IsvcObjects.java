package dev.modelplane.operator.llmkube.isvc;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import java.util.ArrayList;
import java.util.List;

/**
 * Every object an InferenceService should have, built from one plan. The operator's dependents and
 * {@code modelplane render} both take them from here.
 *
 * @param cacheClaim the model-cache claim, or null when none is used
 * @param deployment the Deployment
 * @param service the Service
 * @param hpa the HorizontalPodAutoscaler, or null without autoscaling
 * @param integrations the Pyrra and Envoy AI Gateway objects ({@link IntegrationBuilder}); the reconciler applies
 *     them apart from the dependents because their CRDs are optional
 */
public record IsvcObjects(PersistentVolumeClaim cacheClaim, Deployment deployment, Service service,
    HorizontalPodAutoscaler hpa, List<GenericKubernetesResource> integrations) {

  /**
   * The objects of a plan.
   *
   * @param liveReplicas the existing Deployment's replica count (kept while an HPA manages it), or null
   */
  public static IsvcObjects build(ServingPlan plan, Integer liveReplicas) {
    PersistentVolumeClaim claim = switch (plan.cache().kind()) {
      case SHARED_CLAIM, OWNED_CLAIM -> ModelCachePvcBuilder.build(plan);
      case USER_CLAIM, EMPTY_DIR, NONE -> null;
    };
    List<GenericKubernetesResource> integrations = new ArrayList<>();
    GenericKubernetesResource slo = IntegrationBuilder.slo(plan);
    if (slo != null) {
      integrations.add(slo);
    }
    integrations.addAll(IntegrationBuilder.gateway(plan));
    return new IsvcObjects(claim, IsvcDeploymentBuilder.build(plan, liveReplicas), IsvcServiceBuilder.build(plan),
        plan.autoscaling() ? IsvcHpaBuilder.build(plan) : null, List.copyOf(integrations));
  }

  /** The objects in creation order, nulls left out. */
  public List<HasMetadata> all() {
    List<HasMetadata> all = new ArrayList<>();
    if (cacheClaim != null) {
      all.add(cacheClaim);
    }
    all.add(deployment);
    all.add(service);
    if (hpa != null) {
      all.add(hpa);
    }
    all.addAll(integrations);
    return all;
  }
}
