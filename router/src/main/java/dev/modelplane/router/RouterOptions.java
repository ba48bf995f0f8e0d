package dev.modelplane.router;

import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.gateway.GatewayOptions;
import java.time.Duration;
import java.util.List;

/**
 * Everything {@code modelplane router} can be told.
 *
 * @param host bind address of the gRPC and metrics listeners (the gateway has its own in {@code gateway})
 * @param gateway the standalone gateway ({@code null} = no HTTP gateway)
 * @param grpcPort ext_proc port, -1 = off (GIE: 9002)
 * @param grpcHealthPort gRPC health port, -1 = off (GIE: 9003)
 * @param metricsPort separate Prometheus port, -1 = off (GIE: 9090); the gateway also serves {@code /metrics}
 * @param staticEndpoints {@code host:port,…} for static mode ({@code null} when discovering from Kubernetes)
 * @param pools InferencePools to serve from Kubernetes
 * @param allPoolsNamespace serve every InferencePool of this namespace ("*" = all namespaces), or null
 * @param configYaml EndpointPickerConfig text, {@code null} for GIE's default
 * @param scrape metrics scraping settings
 * @param metricsStaleness staleness threshold for the pool gauges (GIE's 2 s)
 * @param externalEpp {@code host:port} of an external EPP to delegate picking to (client mode), or null
 * @param failOpen in client mode, pick an endpoint ourselves when the external EPP fails (FailOpen)
 * @param disableSubsetFilter ignore the proxy's subset hint
 */
public record RouterOptions(String host, GatewayOptions gateway, int grpcPort, int grpcHealthPort, int metricsPort,
    String staticEndpoints, List<PoolKey> pools, String allPoolsNamespace, String configYaml,
    MetricsScraper.Settings scrape, Duration metricsStaleness, String externalEpp, boolean failOpen,
    boolean disableSubsetFilter) {
}
