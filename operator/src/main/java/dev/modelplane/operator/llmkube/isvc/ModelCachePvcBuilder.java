package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.operator.common.OperatorLabels;
import dev.modelplane.operator.llmkube.ModelStaging;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import java.util.Map;

/**
 * The service's model-cache claim: {@code llmkube-model-cache} shared by a namespace (never deleted by the operator),
 * or {@code <service>-model-cache} owned by one InferenceService. Size, access mode and storage class come from the
 * operator's settings.
 */
public final class ModelCachePvcBuilder {
  private ModelCachePvcBuilder() {
  }

  public static PersistentVolumeClaim build(ServingPlan plan) {
    Map<String, String> labels = plan.cache().kind() == ServingPlan.CacheKind.OWNED_CLAIM ? plan.labels()
        : Map.of(OperatorLabels.MANAGED_BY, OperatorLabels.MANAGED_BY_VALUE);
    return ModelStaging.cacheClaim(plan.cache().claimName(), plan.namespace(), labels, plan.settings());
  }
}
