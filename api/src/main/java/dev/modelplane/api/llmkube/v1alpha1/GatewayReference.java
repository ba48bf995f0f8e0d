package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;

/**
 * A Gateway API {@code Gateway} (group {@code gateway.networking.k8s.io}).
 *
 * @param name Name of the Gateway.
 * @param namespace Namespace of the Gateway; the service's own namespace when unset. Attaching from another namespace
 *     needs a listener whose {@code allowedRoutes.namespaces} admits the service's namespace; the controller creates
 *     no ReferenceGrant and does not change the listener.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GatewayReference(
    @Required String name,
    String namespace) {
}
