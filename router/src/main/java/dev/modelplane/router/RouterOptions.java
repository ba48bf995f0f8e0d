package dev.modelplane.router;

import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.extproc.GrpcTls;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.request.RequestLimits;
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
 * @param extProcTls the ext_proc server's transport (GIE's {@code --secure-serving}, {@code --cert-path}, …)
 * @param eppTls client mode's transport to the external picker
 * @param requestLimits body size (413 above; the ext_proc server's cap, the gateway has its own from the same flag),
 *     JSON shape (400 above) and bytes in flight (429 above), for both front ends; ext_proc response bodies larger
 *     than the body cap pass through unparsed
 */
public record RouterOptions(String host, GatewayOptions gateway, int grpcPort, int grpcHealthPort, int metricsPort,
    String staticEndpoints, List<PoolKey> pools, String allPoolsNamespace, String configYaml,
    MetricsScraper.Settings scrape, Duration metricsStaleness, String externalEpp, boolean failOpen,
    boolean disableSubsetFilter, GrpcTls.ServerTls extProcTls, GrpcTls.ClientTls eppTls, RequestLimits requestLimits) {

  /** Plaintext ext_proc in both directions and the default body cap (tests, embedding). */
  public RouterOptions(String host, GatewayOptions gateway, int grpcPort, int grpcHealthPort, int metricsPort,
      String staticEndpoints, List<PoolKey> pools, String allPoolsNamespace, String configYaml,
      MetricsScraper.Settings scrape, Duration metricsStaleness, String externalEpp, boolean failOpen,
      boolean disableSubsetFilter) {
    this(host, gateway, grpcPort, grpcHealthPort, metricsPort, staticEndpoints, pools, allPoolsNamespace, configYaml,
        scrape, metricsStaleness, externalEpp, failOpen, disableSubsetFilter, GrpcTls.ServerTls.PLAINTEXT,
        GrpcTls.ClientTls.PLAINTEXT, gateway == null ? RequestLimits.defaults()
            : RequestLimits.defaults().withMaxBodyBytes(gateway.maxBodyBytes()));
  }

  /** Request bodies the ext_proc server buffers (413 above). */
  public long extProcMaxBodyBytes() {
    return requestLimits.maxBodyBytes();
  }

  public RouterOptions withExtProcTls(GrpcTls.ServerTls tls) {
    return new RouterOptions(host, gateway, grpcPort, grpcHealthPort, metricsPort, staticEndpoints, pools,
        allPoolsNamespace, configYaml, scrape, metricsStaleness, externalEpp, failOpen, disableSubsetFilter, tls,
        eppTls, requestLimits);
  }

  public RouterOptions withEppTls(GrpcTls.ClientTls tls) {
    return new RouterOptions(host, gateway, grpcPort, grpcHealthPort, metricsPort, staticEndpoints, pools,
        allPoolsNamespace, configYaml, scrape, metricsStaleness, externalEpp, failOpen, disableSubsetFilter,
        extProcTls, tls, requestLimits);
  }

  public RouterOptions withExtProcMaxBodyBytes(long max) {
    return new RouterOptions(host, gateway, grpcPort, grpcHealthPort, metricsPort, staticEndpoints, pools,
        allPoolsNamespace, configYaml, scrape, metricsStaleness, externalEpp, failOpen, disableSubsetFilter,
        extProcTls, eppTls, requestLimits.withMaxBodyBytes(max));
  }

  public RouterOptions withRequestLimits(RequestLimits limits) {
    return new RouterOptions(host, gateway, grpcPort, grpcHealthPort, metricsPort, staticEndpoints, pools,
        allPoolsNamespace, configYaml, scrape, metricsStaleness, externalEpp, failOpen, disableSubsetFilter,
        extProcTls, eppTls, limits);
  }
}
