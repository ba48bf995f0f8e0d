package dev.modelplane.router.metrics;

import dev.modelplane.router.flowcontrol.FlowController;
import dev.modelplane.router.flowcontrol.FlowOutcome;
import dev.modelplane.router.plugin.Plugin;
import dev.modelplane.router.plugin.PluginObserver;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.scheduling.SchedulerObserver;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The router's own metrics: GIE's {@code inference_objective_*}, {@code inference_pool_*} and
 * {@code inference_extension_*} names, plus {@code modelplane_gateway_*} for the standalone gateway.
 */
public final class RouterMetrics implements SchedulerObserver, PluginObserver {
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private record PluginAt(String extensionPoint, Plugin plugin) {
  }

  private final Map<PluginAt, PrometheusRegistry.Histogram.Child> pluginChildren = new ConcurrentHashMap<>();
  private final Map<String, FlowController> flowControllers = new ConcurrentHashMap<>();

  public final PrometheusRegistry.Counter requestTotal = registry.counter("inference_objective_request_total",
      "Counter of inference objective requests broken out for each model and target model.",
      "model_name", "target_model_name", "priority");
  public final PrometheusRegistry.Counter requestErrorTotal = registry.counter(
      "inference_objective_request_error_total",
      "Counter of inference objective requests errors broken out for each model and target model.",
      "model_name", "target_model_name", "error_code");
  public final PrometheusRegistry.Histogram requestDuration = registry.histogram(
      "inference_objective_request_duration_seconds", "Inference objective response latency distribution in seconds.",
      PrometheusRegistry.LATENCY_SECONDS, "model_name", "target_model_name");
  public final PrometheusRegistry.Histogram requestSizes = registry.histogram("inference_objective_request_sizes",
      "Inference objective requests size distribution in bytes.", PrometheusRegistry.BYTES, "model_name",
      "target_model_name");
  public final PrometheusRegistry.Histogram responseSizes = registry.histogram("inference_objective_response_sizes",
      "Inference objective responses size distribution in bytes.", PrometheusRegistry.BYTES, "model_name",
      "target_model_name");
  public final PrometheusRegistry.Gauge runningRequests = registry.gauge("inference_objective_running_requests",
      "Inference objective number of running requests in each model.", "model_name");
  private final PrometheusRegistry.Histogram schedulerE2e = registry.histogram(
      "inference_extension_scheduler_e2e_duration_seconds", "Scheduling cycle end-to-end latency in seconds.",
      PrometheusRegistry.LATENCY_SECONDS);
  public final PrometheusRegistry.Counter schedulerAttempts = registry.counter(
      "inference_extension_scheduler_attempts_total", "Number of scheduling attempts by outcome and endpoint.",
      "status", "target_model_name", "pod_name", "namespace", "port");
  private final PrometheusRegistry.Histogram pluginDuration = registry.histogram(
      "inference_extension_plugin_duration_seconds", "Plugin processing latency in seconds.",
      PrometheusRegistry.LATENCY_SECONDS, "extension_point", "plugin_type", "plugin_name");
  public final PrometheusRegistry.Counter pluginDecisions = registry.counter("modelplane_router_plugin_decisions_total",
      "Decisions made by scheduling plugins: candidates a filter removed, endpoints a picker chose, P/D decisions.",
      "extension_point", "plugin_type", "plugin_name", "decision");
  private final PrometheusRegistry.Histogram prefixHitRatio = registry.histogram(
      "inference_extension_prefix_indexer_hit_ratio", "Ratio of prefix length matched to total prefix length.",
      PrometheusRegistry.RATIO);
  private final PrometheusRegistry.Histogram prefixHitBytes = registry.histogram(
      "inference_extension_prefix_indexer_hit_bytes", "Length of the prefix match in bytes.", PrometheusRegistry.BYTES);
  public final PrometheusRegistry.Counter disaggDecisions = registry.counter(
      "modelplane_router_disagg_decisions_total", "Disaggregation decisions of the P/D profile handler.",
      "model_name", "decision_type");
  public final PrometheusRegistry.Histogram flowQueueDuration = registry.histogram(
      "inference_extension_flow_control_request_queue_duration_seconds",
      "Time requests spent in flow control, by outcome.", PrometheusRegistry.LATENCY_SECONDS,
      "fairness_id", "priority", "outcome", "inference_pool", "model_name", "target_model_name");
  public final PrometheusRegistry.Gauge poolSaturation = registry.gauge(
      "inference_extension_flow_control_pool_saturation", "Saturation of the pool seen by flow control.",
      "inference_pool");

  // Gateway
  public final PrometheusRegistry.Counter gatewayRequests = registry.counter("modelplane_gateway_requests_total",
      "Requests the gateway answered, by status code.", "code", "model_name");
  public final PrometheusRegistry.Histogram gatewayDuration = registry.histogram(
      "modelplane_gateway_request_duration_seconds", "Gateway request duration, from first byte in to last byte out.",
      PrometheusRegistry.LATENCY_SECONDS, "code");
  public final PrometheusRegistry.Histogram gatewayTtfb = registry.histogram(
      "modelplane_gateway_time_to_first_byte_seconds", "Time from request start to the first response byte.",
      PrometheusRegistry.LATENCY_SECONDS);
  public final PrometheusRegistry.Counter gatewayRetries = registry.counter("modelplane_gateway_upstream_retries_total",
      "Requests retried on another endpoint after a failure before the first byte.", "reason");
  public final PrometheusRegistry.Gauge gatewayActive = registry.gauge("modelplane_gateway_active_requests",
      "Requests in progress in the gateway.");
  public final PrometheusRegistry.Counter extProcStreams = registry.counter("modelplane_extproc_streams_total",
      "ext_proc streams handled, by outcome.", "outcome");

  private volatile LongSupplier prefixIndexSize = () -> 0;

  public RouterMetrics(PoolRegistry pools, LongSupplier nanoClock, long stalenessNanos) {
    registry.gauge("inference_pool_average_kv_cache_utilization",
        "The average kv cache utilization for an inference server pool.",
        g -> pools.pools().forEach(p -> g.set(average(p, m -> m.kvCacheUsage(), nanoClock, stalenessNanos),
            p.key().name())), "name");
    registry.gauge("inference_pool_average_queue_size",
        "The average number of requests pending in the model server queue.",
        g -> pools.pools().forEach(p -> g.set(average(p, m -> m.waitingQueueSize(), nanoClock, stalenessNanos),
            p.key().name())), "name");
    registry.gauge("inference_pool_average_running_requests",
        "The average number of requests running in the model servers.",
        g -> pools.pools().forEach(p -> g.set(average(p, m -> m.runningRequests(), nanoClock, stalenessNanos),
            p.key().name())), "name");
    registry.gauge("inference_pool_ready_pods", "The number of ready pods in the inference server pool.",
        g -> pools.pools().forEach(p -> g.set(p.endpoints().size(), p.key().name())), "name");
    registry.gauge("inference_extension_prefix_indexer_size", "Size of the prefix indexer.",
        g -> g.set(prefixIndexSize.getAsLong()));
    registry.gauge("inference_extension_flow_control_queue_size", "Requests queued in flow control.",
        g -> flowControllers.forEach((pool, fc) -> fc.queueSizes().forEach((prio, flows) -> flows.forEach(
            (fairness, sizes) -> g.set(sizes[0], fairness, String.valueOf(prio), pool)))),
        "fairness_id", "priority", "inference_pool");
    registry.gauge("inference_extension_flow_control_queue_bytes", "Bytes queued in flow control.",
        g -> flowControllers.forEach((pool, fc) -> fc.queueSizes().forEach((prio, flows) -> flows.forEach(
            (fairness, sizes) -> g.set(sizes[1], fairness, String.valueOf(prio), pool)))),
        "fairness_id", "priority", "inference_pool");
  }

  private static double average(EndpointPool pool, java.util.function.ToDoubleFunction<MetricsSnapshot> f,
      LongSupplier nanoClock, long stalenessNanos) {
    long now = nanoClock.getAsLong();
    double sum = 0;
    int n = 0;
    for (EndpointState s : pool.endpoints()) {
      MetricsSnapshot m = s.metrics();
      if (!m.isStale(now, stalenessNanos)) {
        sum += f.applyAsDouble(m);
        n++;
      }
    }
    return n == 0 ? 0 : sum / n;
  }

  public PrometheusRegistry registry() {
    return registry;
  }

  public String scrape() {
    return registry.scrape();
  }

  /** Registers a pool's flow controller for the queue gauges. */
  public void flowController(String pool, FlowController controller) {
    flowControllers.put(pool, controller);
  }

  /** A flow-control observer labelled with the pool. */
  public FlowController.Observer flowObserver(String pool) {
    return new FlowController.Observer() {
      @Override
      public void outcome(String fairnessId, int priority, FlowOutcome outcome, long queuedNanos) {
        flowQueueDuration.observe(queuedNanos / 1e9, fairnessId, String.valueOf(priority), outcome.label(), pool, "",
            "");
      }

      @Override
      public void saturation(double saturation) {
        poolSaturation.set(saturation, pool);
      }
    };
  }

  @Override
  public void pluginDuration(String extensionPoint, Plugin plugin, long nanos) {
    pluginChildren.computeIfAbsent(new PluginAt(extensionPoint, plugin),
        k -> pluginDuration.child(extensionPoint, plugin.type(), plugin.name()))
        .observe(nanos / 1e9);
  }

  @Override
  public void filtered(Plugin filter, int before, int kept) {
    if (kept < before) {
      pluginDecisions.add(before - kept, "Filter", filter.type(), filter.name(), "removed");
    }
  }

  @Override
  public void cycle(long nanos, boolean success) {
    schedulerE2e.observe(nanos / 1e9);
  }

  /** Where {@code inference_extension_prefix_indexer_size} reads the prefix index size from. */
  public void prefixIndexSize(LongSupplier size) {
    this.prefixIndexSize = size;
  }

  @Override
  public void disaggDecision(String targetModel, String decision) {
    disaggDecisions.inc(targetModel, decision);
  }

  @Override
  public void prefixMatched(long matchedBytes, long totalBytes) {
    if (totalBytes > 0) {
      prefixHitRatio.observe((double) matchedBytes / totalBytes);
      prefixHitBytes.observe(matchedBytes);
    }
  }
}
