package dev.modelplane.api.gie.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * Identifies a parent object (usually a Gateway) that routes to a pool.
 *
 * @param group API group of the parent; {@code gateway.networking.k8s.io} by default.
 * @param kind Kind of the parent; {@code Gateway} by default.
 * @param name Name of the parent.
 * @param namespace Namespace of the parent; the pool's namespace when omitted.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ParentReference(
    @Default("gateway.networking.k8s.io")
    @Size(min = 0, max = 253)
    @Pattern("^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
    String group,
    @Default("Gateway") @Size(min = 1, max = 63) @Pattern("^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$") String kind,
    @Required @Size(min = 1, max = 253) String name,
    @Size(min = 1, max = 63) @Pattern("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$") String namespace) {
}
