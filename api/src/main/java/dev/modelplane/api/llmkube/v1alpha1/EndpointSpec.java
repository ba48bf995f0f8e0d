package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

/**
 * The Service in front of an InferenceService's pods and the URL reported in {@code status.endpoint}.
 *
 * @param path Request path advertised in {@code status.endpoint}; {@code /v1/chat/completions} by default. It also
 *     hints the server mode (an embeddings or rerank path selects that mode for llama.cpp).
 * @param port Service port, 1 to 65535; 8080 by default. It is also the container port when {@code containerPort}
 *     is unset; either way the Service forwards to the port the inference server really listens on.
 * @param type Kubernetes Service type; {@code ClusterIP} by default.
 * @param nodePort Fixed node port, 30000 to 32767, for {@code type: NodePort}, so the external address stays the same
 *     across re-creations; when unset Kubernetes picks one.
 * @param gateway Exposure through an Envoy AI Gateway, in addition to the Service.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EndpointSpec(
    @Default("/v1/chat/completions") String path,
    @Min(1) @Max(65535) @Default("8080") Integer port,
    @Default("ClusterIP") ServiceType type,
    @Min(30000) @Max(32767) Integer nodePort,
    GatewayExposure gateway) {
}
