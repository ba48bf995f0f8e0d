package dev.modelplane.api.otterscale.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * A Gateway ({@code gateway.networking.k8s.io}, kind {@code Gateway}) to attach a route to.
 *
 * @param name Name of the Gateway.
 * @param namespace Namespace of the Gateway; the ModelService's own namespace when empty. A Gateway in another
 *     namespace must allow routes from this one.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GatewayRef(
    @Required @Size(min = 1, max = 253) String name,
    @Size(max = 63) @Pattern("^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?$") String namespace) {
}
