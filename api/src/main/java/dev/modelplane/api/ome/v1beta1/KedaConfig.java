package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Pattern;

/**
 * Event-driven autoscaling with KEDA: a {@code ScaledObject} with one Prometheus trigger scales the component's
 * Deployment. KEDA is chosen with {@code enableKeda: true} or the annotation {@code ome.io/autoscalerClass: keda} on
 * the InferenceService (the annotation, when present, decides); the annotations {@code autoscaling.keda.sh/prometheus.serverAddress}, {@code autoscaling.keda.sh/prometheus.query},
 * {@code autoscaling.keda.sh/threshold} and {@code autoscaling.keda.sh/operator} take precedence over the fields
 * here. Upstream OME reads only the InferenceService-level block and ignores the per-component one.
 *
 * @param enableKeda {@code true} scales the component with a KEDA ScaledObject instead of an HPA, unless the
 *     annotation {@code ome.io/autoscalerClass} names another autoscaler. Upstream OME ignores this flag.
 * @param promServerAddress Full URL (scheme, host and port) of the Prometheus server KEDA queries, e.g.
 *     {@code http://prometheus-operated.monitoring.svc.cluster.local:9090} (also the default).
 * @param customPromQuery PromQL query whose single numeric result drives scaling. A {@code %s} in it is replaced
 *     by the component's name. By default a token-throughput query over vLLM metrics is used.
 * @param scalingThreshold The value the query result is compared with, as a decimal number in a string, e.g.
 *     {@code "10"} (the default).
 * @param scalingOperator How the query result is compared with the threshold; {@code LessThanOrEqual} by default.
 * @param authenticationRef KEDA authentication object holding credentials for the Prometheus server.
 * @param authModes Comma-separated Prometheus authentication modes KEDA uses with {@code authenticationRef}:
 *     {@code basic}, {@code tls}, {@code bearer} and/or {@code custom}. Ignored without {@code authenticationRef}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record KedaConfig(
    Boolean enableKeda,
    @Pattern("^https?://[^/?#\\s]+") String promServerAddress,
    String customPromQuery,
    @Pattern("^\\s*[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?\\s*$") String scalingThreshold,
    KedaScalingOperator scalingOperator,
    ScalerAuthenticationRef authenticationRef,
    @Pattern("^\\s*(basic|tls|bearer|custom)?\\s*(,\\s*(basic|tls|bearer|custom)?\\s*)*$") String authModes) {
}
