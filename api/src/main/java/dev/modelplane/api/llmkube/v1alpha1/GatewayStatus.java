package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Result of the Envoy AI Gateway exposure; only present when {@code spec.endpoint.gateway} is enabled (problems such
 * as missing gateway CRDs are reported by the {@code GatewayReady} condition).
 *
 * @param routeReady Whether the route and its backend objects were reconciled successfully.
 * @param modelName The OpenAI {@code model} value clients send to reach this service through the gateway.
 * @param endpoint Address of the gateway clients send requests to; set for ModelRouter exposure, empty for an
 *     InferenceService.
 * @param authEnabled Whether a JWT-authentication policy was compiled for the route; set for ModelRouter exposure,
 *     false otherwise.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GatewayStatus(
    Boolean routeReady,
    String modelName,
    String endpoint,
    Boolean authEnabled) {
}
