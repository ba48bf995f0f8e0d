package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * Where this service keeps the model weights it downloads, overriding the controller-wide cache mode. Has no effect
 * for {@code pvc://} model sources, which are mounted read-only as they are.
 *
 * @param claimName An existing PersistentVolumeClaim in the service's namespace, mounted as the writable model cache
 *     instead of the controller's shared or per-service cache claim. Weights land in the claim under the Model's cache
 *     key, so several models can share it. When the claim does not exist the service is Degraded; there is no
 *     fallback to the shared cache. For a node-local (ReadWriteOnce) claim, pin the pods with {@code nodeSelector}.
 *     1 to 253 characters. Cannot be combined with {@code persistence: Ephemeral}.
 * @param persistence {@code Cached} (the behaviour when unset) or {@code Ephemeral}, which skips the cache volume
 *     entirely. With {@code Ephemeral}, set {@code resources.ephemeralStorage}; the controller emits a warning event
 *     when it is missing.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!(has(self.persistence) && self.persistence == 'Ephemeral' && has(self.claimName))",
    message = "claimName cannot be set when persistence is Ephemeral: one names a cache volume to use, the other "
        + "declines to use any")
public record ModelCacheSpec(
    @Size(min = 1, max = 253) String claimName,
    CachePersistence persistence) {
}
