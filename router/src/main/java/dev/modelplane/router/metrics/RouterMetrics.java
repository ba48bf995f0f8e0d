package dev.modelplane.router.metrics;

import dev.modelplane.common.metrics.MetricsRegistry.CounterFamily;
import dev.modelplane.common.metrics.MetricsRegistry.GaugeFamily;
import dev.modelplane.common.metrics.MetricsRegistry.HistogramFamily;
import dev.modelplane.common.metrics.MetricsRegistry;
import dev.modelplane.router.flowcontrol.FlowController;
import dev.modelplane.router.flowcontrol.FlowOutcome;
import dev.modelplane.router.plugin.Plugin;
import dev.modelplane.router.plugin.PluginObserver;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.prefix.precise.PoolIndex;
import dev.modelplane.router.scheduling.SchedulerObserver;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The router's own metrics: GIE's {@code inference_objective_*}, {@code inference_pool_*} and
 * {@code inference_extension_*} names, plus {@code modelplane_gateway_*} for the standalone gateway. Held by the
 * Prometheus Java client (thread-safe; a histogram's scrape is one consistent snapshot); gauges derived from pools and
 * flow controllers are computed per scrape, so concurrent scrapes never see each other's half-built sets.
 */
public final class RouterMetrics implements SchedulerObserver, PluginObserver {
  /** Latency buckets in seconds, as GIE's scheduler histograms use. */
  static final double[] LATENCY_SECONDS = {0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1,
      0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300};
  static final double[] BYTES = {64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216};
  static final double[] RATIO = {0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};

  private final MetricsRegistry registry = new MetricsRegistry();

  private record PluginAt(String extensionPoint, Plugin plugin) {
  }

  private final Map<PluginAt, DistributionDataPoint> pluginChildren = new ConcurrentHashMap<>();
  private final Map<String, FlowController> flowControllers = new ConcurrentHashMap<>();

  public final CounterFamily requestTotal = registry.counter("inference_objective_request_total",
      "Counter of inference objective requests broken out for each model and target model.",
      "model_name", "target_model_name", "priority");
  public final CounterFamily requestErrorTotal = registry.counter("inference_objective_request_error_total",
      "Counter of inference objective requests errors broken out for each model and target model.",
      "model_name", "target_model_name", "error_code");
  public final HistogramFamily requestDuration = registry.histogram("inference_objective_request_duration_seconds",
      "Inference objective response latency distribution in seconds.", LATENCY_SECONDS, "model_name",
      "target_model_name");
  public final HistogramFamily requestSizes = registry.histogram("inference_objective_request_sizes",
      "Inference objective requests size distribution in bytes.", BYTES, "model_name", "target_model_name");
  public final HistogramFamily responseSizes = registry.histogram("inference_objective_response_sizes",
      "Inference objective responses size distribution in bytes.", BYTES, "model_name", "target_model_name");
  public final GaugeFamily runningRequests = registry.gauge("inference_objective_running_requests",
      "Inference objective number of running requests in each model.", "model_name");
  private final HistogramFamily schedulerE2e = registry.histogram("inference_extension_scheduler_e2e_duration_seconds",
      "Scheduling cycle end-to-end latency in seconds.", LATENCY_SECONDS);
  public final CounterFamily schedulerAttempts = registry.counter("inference_extension_scheduler_attempts_total",
      "Number of scheduling attempts by outcome and endpoint.", "status", "target_model_name", "pod_name",
      "namespace", "port");
  private final HistogramFamily pluginDuration = registry.histogram("inference_extension_plugin_duration_seconds",
      "Plugin processing latency in seconds.", LATENCY_SECONDS, "extension_point", "plugin_type", "plugin_name");
  public final CounterFamily pluginDecisions = registry.counter("modelplane_router_plugin_decisions_total",
      "Decisions made by scheduling plugins: candidates a filter removed, endpoints a picker chose, P/D decisions.",
      "extension_point", "plugin_type", "plugin_name", "decision");
  private final HistogramFamily prefixHitRatio = registry.histogram("inference_extension_prefix_indexer_hit_ratio",
      "Ratio of prefix length matched to total prefix length.", RATIO);
  private final HistogramFamily prefixHitBytes = registry.histogram("inference_extension_prefix_indexer_hit_bytes",
      "Length of the prefix match in bytes.", BYTES);
  public final CounterFamily disaggDecisions = registry.counter("modelplane_router_disagg_decisions_total",
      "Disaggregation decisions of the P/D profile handler.", "model_name", "decision_type");
  public final HistogramFamily flowQueueDuration = registry.histogram(
      "inference_extension_flow_control_request_queue_duration_seconds",
      "Time requests spent in flow control, by outcome.", LATENCY_SECONDS,
      "fairness_id", "priority", "outcome", "inference_pool", "model_name", "target_model_name");
  public final GaugeFamily poolSaturation = registry.gauge("inference_extension_flow_control_pool_saturation",
      "Saturation of the pool seen by flow control.", "inference_pool");

  // Gateway
  public final CounterFamily gatewayRequests = registry.counter("modelplane_gateway_requests_total",
      "Requests the gateway answered, by status code.", "code", "model_name");
  public final HistogramFamily gatewayDuration = registry.histogram("modelplane_gateway_request_duration_seconds",
      "Gateway request duration, from first byte in to last byte out.", LATENCY_SECONDS, "code");
  public final HistogramFamily gatewayTtfb = registry.histogram("modelplane_gateway_time_to_first_byte_seconds",
      "Time from request start to the first response byte.", LATENCY_SECONDS);
  public final CounterFamily gatewayRetries = registry.counter("modelplane_gateway_upstream_retries_total",
      "Requests retried on another endpoint after a failure before the first byte.", "reason");
  public final GaugeFamily gatewayActive = registry.gauge("modelplane_gateway_active_requests",
      "Requests in progress in the gateway.");
  public final CounterFamily extProcStreams = registry.counter("modelplane_extproc_streams_total",
      "ext_proc streams handled, by outcome.", "outcome");
  public final CounterFamily gatewayUpstreamTimeouts = registry.counter("modelplane_gateway_upstream_timeouts_total",
      "Upstream attempts given up on: no response body byte within the response timeout (phase=response), or a "
          + "pause between body chunks longer than the idle timeout (phase=idle).", "phase");
  public final CounterFamily gatewayAbortedStreams = registry.counter("modelplane_gateway_aborted_responses_total",
      "Responses ended early after bytes had reached the client, by reason (upstream_idle_timeout, upstream_failed, "
          + "client_not_reading).", "reason");
  public final CounterFamily gatewayClientTimeouts = registry.counter("modelplane_gateway_client_timeouts_total",
      "Client connections closed by the gateway: idle keep-alive (idle), request not read in time (request_read), "
          + "streamed response left unread (not_reading).", "reason");

  // Precise prefix index (KV-cache events)
  private final CounterFamily kvEventBatches = registry.counter("modelplane_router_kv_event_batches_total",
      "Batches of KV-cache events the precise prefix index read, per pool.", "pool");
  private final CounterFamily kvEvents = registry.counter("modelplane_router_kv_events_total",
      "KV-cache events the precise prefix index read, by type (BlockStored, BlockRemoved, AllBlocksCleared, Unknown).",
      "pool", "type");
  private final CounterFamily kvEventsSkipped = registry.counter("modelplane_router_kv_events_skipped_total",
      "KV-cache events (or removed blocks, for unknown_block) left out of the precise prefix index, by reason: "
          + "unknown_parent (the parent block was never indexed), block_size (not tokenProcessorConfig.blockSize), "
          + "kv_cache_group, medium, inconsistent, unknown_block, unknown_pod (central mode).", "pool", "reason");
  private final CounterFamily kvEventBatchesLost = registry.counter("modelplane_router_kv_event_batches_lost_total",
      "Batches of KV-cache events missed for good (a gap in a server's sequence numbers the replay did not fill).",
      "pool");
  private final CounterFamily kvEventMalformed = registry.counter("modelplane_router_kv_event_malformed_total",
      "Messages on a KV-cache event socket that were not an event batch.", "pool");
  private final CounterFamily kvBlockHashes = registry.counter("modelplane_router_kv_block_hash_checks_total",
      "Stored blocks whose server hash equals (agree) or differs from (disagree) the router's sha256_cbor key: "
          + "agree means the server runs sha256_cbor with PYTHONHASHSEED equal to hashSeed.", "pool", "result");
  private final CounterFamily precisePrefixFallbacks = registry.counter(
      "modelplane_router_precise_prefix_fallbacks_total",
      "Requests the precise prefix scorer scored from the approximate index, by reason: no_events (the pool's index "
          + "is not fed), no_tokenizer (no tokenizer for the model), prompt (an API or prompt it does not tokenize).",
      "pool", "reason");
  private final List<Supplier<List<PoolIndex.Status>>> preciseIndexes = new CopyOnWriteArrayList<>();

  public final CounterFamily inflightRejections = registry.counter("modelplane_router_inflight_bytes_rejections_total",
      "Requests refused (429) because the request bytes in flight reached --max-inflight-request-bytes.");

  /** Bounds the values of client-chosen labels (model names, fairness ids). */
  public final MetricLabels labels = new MetricLabels();

  private volatile LongSupplier prefixIndexSize = () -> 0;
  private volatile LongSupplier inflightBytes = () -> 0;

  public RouterMetrics(PoolRegistry pools, LongSupplier nanoClock, long stalenessNanos) {
    registry.gaugeAtScrape("inference_pool_average_kv_cache_utilization",
        "The average kv cache utilization for an inference server pool.",
        out -> pools.pools().forEach(p -> out.set(average(p, MetricsSnapshot::kvCacheUsage, nanoClock,
            stalenessNanos), p.key().name())), "name");
    registry.gaugeAtScrape("inference_pool_average_queue_size",
        "The average number of requests pending in the model server queue.",
        out -> pools.pools().forEach(p -> out.set(average(p, MetricsSnapshot::waitingQueueSize, nanoClock,
            stalenessNanos), p.key().name())), "name");
    registry.gaugeAtScrape("inference_pool_average_running_requests",
        "The average number of requests running in the model servers.",
        out -> pools.pools().forEach(p -> out.set(average(p, MetricsSnapshot::runningRequests, nanoClock,
            stalenessNanos), p.key().name())), "name");
    registry.gaugeAtScrape("inference_pool_ready_pods", "The number of ready pods in the inference server pool.",
        out -> pools.pools().forEach(p -> out.set(p.endpoints().size(), p.key().name())), "name");
    registry.gaugeAtScrape("inference_extension_prefix_indexer_size", "Size of the prefix indexer.",
        out -> out.set(prefixIndexSize.getAsLong()));
    registry.gaugeAtScrape("modelplane_router_inflight_request_bytes",
        "Request body bytes held by the router (being received, queued in flow control or in progress).",
        out -> out.set(inflightBytes.getAsLong()));
    registry.gaugeAtScrape("modelplane_router_prefix_index_mode",
        "Which prefix index the precise prefix scorer scores a pool from: 1 for the mode in use (precise: the "
            + "servers' KV-cache events; approximate: the router's own routing history), 0 for the other.",
        out -> preciseStatuses().forEach(s -> {
          out.set(s.precise() ? 1 : 0, s.pool(), "precise");
          out.set(s.precise() ? 0 : 1, s.pool(), "approximate");
        }), "pool", "mode");
    registry.gaugeAtScrape("modelplane_router_precise_prefix_index_blocks",
        "Distinct KV blocks in a pool's precise prefix index.",
        out -> preciseStatuses().forEach(s -> out.set(s.keys(), s.pool())), "pool");
    registry.gaugeAtScrape("modelplane_router_precise_prefix_index_entries",
        "(block, endpoint) entries in a pool's precise prefix index.",
        out -> preciseStatuses().forEach(s -> out.set(s.entries(), s.pool())), "pool");
    registry.gaugeAtScrape("modelplane_router_precise_prefix_speculative_entries",
        "Speculative (block, endpoint) guesses queued in a pool's precise prefix index.",
        out -> preciseStatuses().forEach(s -> out.set(s.speculative(), s.pool())), "pool");
    registry.gaugeAtScrape("inference_extension_flow_control_queue_size", "Requests queued in flow control.",
        out -> flowQueues(out, 0), "fairness_id", "priority", "inference_pool");
    registry.gaugeAtScrape("inference_extension_flow_control_queue_bytes", "Bytes queued in flow control.",
        out -> flowQueues(out, 1), "fairness_id", "priority", "inference_pool");
  }

  private void flowQueues(MetricsRegistry.ScrapedValues out, int column) {
    flowControllers.forEach((pool, fc) -> fc.queueSizes().forEach((prio, flows) -> {
      Map<String, Long> byLabel = new java.util.TreeMap<>();
      flows.forEach((fairness, sizes) -> byLabel.merge(MetricLabels.fairness(fairness), sizes[column], Long::sum));
      byLabel.forEach((label, v) -> out.set(v, label, String.valueOf(prio), pool));
    }));
  }

  /** Adds a precise prefix scorer's per-pool indexes to the {@code modelplane_router_precise_prefix_*} gauges. */
  public void precisePrefixIndexes(Supplier<List<PoolIndex.Status>> statuses) {
    preciseIndexes.add(statuses);
  }

  private List<PoolIndex.Status> preciseStatuses() {
    return preciseIndexes.stream().flatMap(s -> s.get().stream()).toList();
  }

  /** Where {@code modelplane_router_inflight_request_bytes} reads the bytes in flight from. */
  public void inflightBytes(LongSupplier bytes) {
    this.inflightBytes = bytes;
  }

  private static double average(EndpointPool pool, ToDoubleFunction<MetricsSnapshot> f, LongSupplier nanoClock,
      long stalenessNanos) {
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

  /** The text exposition (format 0.0.4) of every metric, from one snapshot per metric. */
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
        flowQueueDuration.observe(queuedNanos / 1e9, MetricLabels.fairness(fairnessId), String.valueOf(priority),
            outcome.label(), pool, "", "");
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
    disaggDecisions.inc(labels.model(targetModel), decision);
  }

  @Override
  public void kvEventBatch(String pool) {
    kvEventBatches.inc(pool);
  }

  @Override
  public void kvEvent(String pool, String type) {
    kvEvents.inc(pool, type);
  }

  @Override
  public void kvEventsSkipped(String pool, String reason, long events) {
    kvEventsSkipped.add(events, pool, reason);
  }

  @Override
  public void kvEventBatchesLost(String pool, long batches) {
    kvEventBatchesLost.add(batches, pool);
  }

  @Override
  public void kvEventMalformed(String pool) {
    kvEventMalformed.inc(pool);
  }

  @Override
  public void kvBlockHashes(String pool, boolean agree, long blocks) {
    kvBlockHashes.add(blocks, pool, agree ? "agree" : "disagree");
  }

  @Override
  public void precisePrefixFallback(String pool, String reason) {
    precisePrefixFallbacks.inc(pool, reason);
  }

  @Override
  public void prefixMatched(long matchedBytes, long totalBytes) {
    if (totalBytes > 0) {
      prefixHitRatio.observe((double) matchedBytes / totalBytes);
      prefixHitBytes.observe(matchedBytes);
    }
  }
}
