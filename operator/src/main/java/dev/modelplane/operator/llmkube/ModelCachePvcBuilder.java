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
    Map<String, String> labels = plan.cache().kind() == ServingPlan.CacheKind.OWNED_CLAIM ? plan.labels()
        : Map.of(IsvcLabels.MANAGED_BY, IsvcLabels.MANAGED_BY_VALUE);
    return claim(plan.cache().claimName(), plan.namespace(), labels, plan.settings());
  }

  /** The namespace's shared cache claim, as serving pods and prefetch Jobs use it (no owner, kept). */
  public static PersistentVolumeClaim shared(String namespace, OperatorSettings settings) {
    return claim(ServingPlan.SHARED_CACHE_CLAIM, namespace, Map.of(IsvcLabels.MANAGED_BY,
        IsvcLabels.MANAGED_BY_VALUE), settings);
  }

  private static PersistentVolumeClaim claim(String name, String namespace, Map<String, String> labels,
      OperatorSettings settings) {
    OperatorSettings.ModelCacheSettings cache = settings.modelCache();
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata()
          .withName(name)
          .withNamespace(namespace)
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
