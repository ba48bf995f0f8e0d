package dev.modelplane.operator.llmkube;

import dev.modelplane.operator.OperatorSettings;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

/**
 * The model-cache claim: {@code llmkube-model-cache} shared by a namespace (never deleted by the operator), or
 * {@code <service>-model-cache} owned by one InferenceService. Size, access mode and storage class come from the
 * operator's settings.
 */
public final class ModelCachePvcBuilder {
  private ModelCachePvcBuilder() {
  }

  public static PersistentVolumeClaim build(ServingPlan plan) {
    OperatorSettings.ModelCacheSettings cache = plan.settings().modelCache();
    Map<String, String> labels = plan.cache().kind() == ServingPlan.CacheKind.OWNED_CLAIM ? plan.labels()
        : Map.of(IsvcLabels.MANAGED_BY, IsvcLabels.MANAGED_BY_VALUE);
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata()
          .withName(plan.cache().claimName())
          .withNamespace(plan.namespace())
          .withLabels(labels)
        .endMetadata()
        .withNewSpec()
          .withAccessModes(cache.accessMode())
          .withStorageClassName(cache.storageClassName())
          .withNewResources().addToRequests("storage", new Quantity(cache.size())).endResources()
        .endSpec()
        .build();
  }
}
