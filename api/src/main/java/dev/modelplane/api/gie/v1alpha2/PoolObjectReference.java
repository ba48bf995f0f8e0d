package dev.modelplane.api.gie.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * A reference to an InferencePool in the referrer's namespace.
 *
 * @param group API group of the pool; {@code inference.networking.k8s.io} by default.
 * @param kind Kind of the referent; {@code InferencePool} by default.
 * @param name Name of the pool.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PoolObjectReference(
    @Default("inference.networking.k8s.io")
    @Size(max = 253)
    @Pattern("^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
    String group,
    @Default("InferencePool") @Size(min = 1, max = 63) @Pattern("^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$") String kind,
    @Required @Size(min = 1, max = 253) String name) {
}
