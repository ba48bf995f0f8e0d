package dev.modelplane.api.otterscale.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

/**
 * The llm-d routing sidecar of the decode pods. It runs as a native sidecar (a restartable init container named
 * {@code routing-proxy}), takes the requests on {@code engine.port}, lets a prefill pod process the prompt when
 * the endpoint picker asked for one, and forwards to vLLM on {@code targetPort}. Prefill pods never get it. When
 * the operator has tracing turned on, the sidecar receives the OpenTelemetry settings as environment variables.
 *
 * @param image The sidecar image. When empty the operator's default routing-proxy image is used.
 * @param connector How the KV cache moves from prefill to decode pods ({@code --connector}), {@code nixlv2} by
 *     default.
 * @param targetPort The port vLLM listens on behind the sidecar ({@code --vllm-port}), 8200 by default. It must
 *     differ from {@code engine.port}.
 * @param zapEncoder Log encoding of the sidecar, such as {@code json} or {@code console}; the sidecar's own default
 *     when empty.
 * @param zapLogLevel Log level of the sidecar, such as {@code debug}, {@code info} or {@code error}; the sidecar's
 *     own default when empty.
 * @param secureProxy Whether the sidecar serves TLS. Always passed to the sidecar; unset means false.
 * @param prefillerUseTLS Whether the sidecar talks TLS to the prefill pods. Passed only when set.
 * @param certPath Directory holding the sidecar's TLS certificate and key. Passed only when set.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RoutingProxySpec(
    String image,
    @Default("nixlv2") String connector,
    @Default("8200") @Min(1) @Max(65535) Integer targetPort,
    String zapEncoder,
    String zapLogLevel,
    Boolean secureProxy,
    Boolean prefillerUseTLS,
    String certPath) {
}
