package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.operator.common.FieldProblem;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.util.Optional;

/** The objects an InferenceService names: its Models (from the informer cache) and a user's cache claim. */
final class IsvcReferences {
  private IsvcReferences() {
  }

  /** The Model {@code name} in {@code namespace}, or null. */
  static Model model(Context<InferenceService> context, String namespace, String name) {
    return context.getSecondaryResources(Model.class).stream()
        .filter(m -> name.equals(m.getMetadata().getName()) && namespace.equals(m.getMetadata().getNamespace()))
        .findFirst().orElse(null);
  }

  /** A {@code modelCache.claimName} that does not exist: the service cannot start and there is no fallback. */
  static Optional<FieldProblem> missingCacheClaim(InferenceService isvc, KubernetesClient client) {
    var cache = isvc.getSpec().modelCache();
    if (cache == null || cache.claimName() == null || cache.claimName().isBlank()) {
      return Optional.empty();
    }
    String ns = isvc.getMetadata().getNamespace();
    boolean exists = client.persistentVolumeClaims().inNamespace(ns).withName(cache.claimName()).get() != null;
    return exists ? Optional.empty() : Optional.of(FieldProblem.fatal("spec.modelCache.claimName",
        "CacheClaimNotFound", "PersistentVolumeClaim " + cache.claimName() + " does not exist in namespace " + ns));
  }
}
