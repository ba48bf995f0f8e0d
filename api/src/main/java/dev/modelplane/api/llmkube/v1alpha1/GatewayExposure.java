package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;

/**
 * Exposure of the service through an Envoy AI Gateway that is already installed: when enabled, the controller
 * creates a {@code Backend}, an {@code AIServiceBackend} and an {@code AIGatewayRoute} attached to the given Gateway.
 * The controller installs neither Envoy AI Gateway nor the Gateway.
 *
 * @param enabled Turns the exposure on; when false or unset no gateway objects are created.
 * @param gatewayRef The Gateway the generated route attaches to.
 * @param modelName The OpenAI {@code model} value that routes a request to this service (matched on the
 *     {@code x-ai-eg-model} header the gateway fills in from the request body). Defaults to {@code modelRef}, or the
 *     service's name when that is empty.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GatewayExposure(
    Boolean enabled,
    @Required GatewayReference gatewayRef,
    String modelName) {
}
