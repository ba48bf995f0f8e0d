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
 * @param pickerRefs whether the gateway follows a pool's {@code endpointPickerRef} to an external picker, or picks
 *     every pool's requests in-process ({@code --epp} wins over both)
 */
public record RouterOptions(String host, GatewayOptions gateway, int grpcPort, int grpcHealthPort, int metricsPort,
    String staticEndpoints, List<PoolKey> pools, String allPoolsNamespace, String configYaml,
    MetricsScraper.Settings scrape, Duration metricsStaleness, String externalEpp, boolean failOpen,
    boolean disableSubsetFilter, GrpcTls.ServerTls extProcTls, GrpcTls.ClientTls eppTls, RequestLimits requestLimits,
    PickerRefs pickerRefs) {

  /** What the gateway does with an InferencePool's {@code endpointPickerRef} ({@code --endpoint-picker-refs}). */
  public enum PickerRefs {
    /** Hand the pick step to the picker the pool names, unless that picker is this router. */
    FOLLOW("follow"),
    /** Ignore every reference: this router picks for every pool (a cluster without picker pods). */
    IN_PROCESS("in-process");

    private final String flag;

    PickerRefs(String flag) {
      this.flag = flag;
    }

    /** The flag's spelling. */
    public String flag() {
      return flag;
    }

    /** Parses the flag's value ({@code follow} or {@code in-process}). */
    public static PickerRefs parse(String value) {
      for (PickerRefs mode : values()) {
        if (mode.flag.equals(value)) {
          return mode;
        }
      }
      throw new IllegalArgumentException("--endpoint-picker-refs must be follow or in-process, not '" + value + "'");
    }
  }

  /** Follows pool picker references by default. */
  public RouterOptions(String host, GatewayOptions gateway, int grpcPort, int grpcHealthPort, int metricsPort,
      String staticEndpoints, List<PoolKey> pools, String allPoolsNamespace, String configYaml,
      MetricsScraper.Settings scrape, Duration metricsStaleness, String externalEpp, boolean failOpen,
      boolean disableSubsetFilter, GrpcTls.ServerTls extProcTls, GrpcTls.ClientTls eppTls,
      RequestLimits requestLimits) {
    this(host, gateway, grpcPort, grpcHealthPort, metricsPort, staticEndpoints, pools, allPoolsNamespace, configYaml,
        scrape, metricsStaleness, externalEpp, failOpen, disableSubsetFilter, extProcTls, eppTls, requestLimits,
        PickerRefs.FOLLOW);
  }

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
        eppTls, requestLimits, pickerRefs);
  }

  public RouterOptions withEppTls(GrpcTls.ClientTls tls) {
    return new RouterOptions(host, gateway, grpcPort, grpcHealthPort, metricsPort, staticEndpoints, pools,
        allPoolsNamespace, configYaml, scrape, metricsStaleness, externalEpp, failOpen, disableSubsetFilter,
        extProcTls, tls, requestLimits, pickerRefs);
  }

  public RouterOptions withExtProcMaxBodyBytes(long max) {
    return new RouterOptions(host, gateway, grpcPort, grpcHealthPort, metricsPort, staticEndpoints, pools,
        allPoolsNamespace, configYaml, scrape, metricsStaleness, externalEpp, failOpen, disableSubsetFilter,
        extProcTls, eppTls, requestLimits.withMaxBodyBytes(max), pickerRefs);
  }

  public RouterOptions withPickerRefs(PickerRefs mode) {
    return new RouterOptions(host, gateway, grpcPort, grpcHealthPort, metricsPort, staticEndpoints, pools,
        allPoolsNamespace, configYaml, scrape, metricsStaleness, externalEpp, failOpen, disableSubsetFilter,
        extProcTls, eppTls, requestLimits, mode);
  }

  /** Whether the gateway follows pools' picker references: {@link PickerRefs#FOLLOW} and no {@code --epp}. */
  public boolean followsPickerRefs() {
    return pickerRefs == PickerRefs.FOLLOW && externalEpp == null;
  }

  public RouterOptions withRequestLimits(RequestLimits limits) {
    return new RouterOptions(host, gateway, grpcPort, grpcHealthPort, metricsPort, staticEndpoints, pools,
        allPoolsNamespace, configYaml, scrape, metricsStaleness, externalEpp, failOpen, disableSubsetFilter,
        extProcTls, eppTls, limits, pickerRefs);
  }
}
