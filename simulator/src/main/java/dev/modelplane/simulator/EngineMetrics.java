package dev.modelplane.simulator;

import dev.modelplane.common.metrics.MetricsRegistry.CounterFamily;
import dev.modelplane.common.metrics.MetricsRegistry.GaugeFamily;
import dev.modelplane.common.metrics.MetricsRegistry.HistogramFamily;
import dev.modelplane.common.metrics.MetricsRegistry.InfoGauge;
import dev.modelplane.common.metrics.MetricsRegistry;
import io.prometheus.metrics.core.metrics.Histogram;
import java.util.ArrayList;
import java.util.List;

/**
 * The vLLM metrics of one rank, under vLLM's names and labels ({@code model_name} = the first served name).
 * Times are model time (see {@code --time-scale}). Held by the Prometheus Java client, which is thread-safe: the
 * engine thread writes while event loops scrape.
 */
final class EngineMetrics {
  static final double[] TTFT_BUCKETS = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5,
      5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};
  static final double[] ITL_BUCKETS = {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0,
      7.5, 10.0, 20.0, 40.0, 80.0};
  static final double[] REQUEST_BUCKETS = {0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0,
      50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};
  static final String[] FINISH_REASONS = {"stop", "length", "abort"};

  /** Text format 0.0.4 without {@code _created} series, as vLLM's default scrape and the router read it. */

  private final MetricsRegistry registry = new MetricsRegistry();
  final String model;
  final GaugeFamily running;
  final GaugeFamily waiting;
  final GaugeFamily kvUsage;
  final GaugeFamily gpuCacheUsage;
  final GaugeFamily cacheConfig;
  final InfoGauge loraInfo;
  final CounterFamily prefixQueries;
  final CounterFamily prefixHits;
  final CounterFamily promptTokens;
  final CounterFamily generationTokens;
  final CounterFamily preemptions;
  final CounterFamily success;
  final HistogramFamily ttft;
  final HistogramFamily itl;
  final HistogramFamily tpot;
  final HistogramFamily requestTpot;
  final HistogramFamily e2e;
  final HistogramFamily queueTime;
  final HistogramFamily inferenceTime;
  final HistogramFamily prefillTime;
  final HistogramFamily decodeTime;
  final HistogramFamily requestPromptTokens;
  final HistogramFamily requestGenerationTokens;
  final HistogramFamily requestMaxTokens;
  final HistogramFamily engineLag;

  EngineMetrics(String model, int blockSize, int numBlocks, int maxModelLen, boolean prefixCaching) {
    this.model = model;
    String m = "model_name";
    running = registry.gauge("vllm:num_requests_running",
        "Number of requests in model execution batches.", m);
    waiting = registry.gauge("vllm:num_requests_waiting",
        "Number of requests waiting to be processed.", m);
    kvUsage = registry.gauge("vllm:kv_cache_usage_perc",
        "KV-cache usage. 1 means 100 percent usage.", m);
    gpuCacheUsage = registry.gauge("vllm:gpu_cache_usage_perc",
        "GPU KV-cache usage. 1 means 100 percent usage. Deprecated: use vllm:kv_cache_usage_perc.", m);
    cacheConfig = registry.gauge("vllm:cache_config_info",
        "Information of the LLMEngine CacheConfig.", "block_size", "num_gpu_blocks", "enable_prefix_caching",
        "cache_dtype", "model_name");
    loraInfo = registry.infoGauge("vllm:lora_requests_info", "Running stats on lora requests.", "max_lora",
        "running_lora_adapters", "waiting_lora_adapters");
    prefixQueries = registry.counter("vllm:prefix_cache_queries_total",
        "Prefix cache queries, in terms of number of queried tokens.", m);
    prefixHits = registry.counter("vllm:prefix_cache_hits_total",
        "Prefix cache hits, in terms of number of cached tokens.", m);
    promptTokens = registry.counter("vllm:prompt_tokens_total",
        "Number of prefill tokens processed.", m);
    generationTokens = registry.counter("vllm:generation_tokens_total",
        "Number of generation tokens processed.", m);
    preemptions = registry.counter("vllm:num_preemptions_total",
        "Cumulative number of preemption from the engine.", m);
    success = registry.counter("vllm:request_success_total",
        "Count of successfully processed requests.", m, "finished_reason");
    ttft = registry.histogram("vllm:time_to_first_token_seconds",
        "Histogram of time to first token in seconds.", TTFT_BUCKETS, m);
    itl = registry.histogram("vllm:inter_token_latency_seconds",
        "Histogram of inter-token latency in seconds.", ITL_BUCKETS, m);
    tpot = registry.histogram("vllm:time_per_output_token_seconds",
        "Histogram of time per output token in seconds. Deprecated: use vllm:inter_token_latency_seconds.",
        ITL_BUCKETS, m);
    requestTpot = registry.histogram("vllm:request_time_per_output_token_seconds",
        "Histogram of time_per_output_token_seconds per request.", ITL_BUCKETS, m);
    e2e = registry.histogram("vllm:e2e_request_latency_seconds",
        "Histogram of e2e request latency in seconds.", REQUEST_BUCKETS, m);
    queueTime = registry.histogram("vllm:request_queue_time_seconds",
        "Histogram of time spent in WAITING phase for request.", REQUEST_BUCKETS, m);
    inferenceTime = registry.histogram("vllm:request_inference_time_seconds",
        "Histogram of time spent in RUNNING phase for request.", REQUEST_BUCKETS, m);
    prefillTime = registry.histogram("vllm:request_prefill_time_seconds",
        "Histogram of time spent in PREFILL phase for request.", REQUEST_BUCKETS, m);
    decodeTime = registry.histogram("vllm:request_decode_time_seconds",
        "Histogram of time spent in DECODE phase for request.", REQUEST_BUCKETS, m);
    double[] tokenBuckets = buckets125(maxModelLen);
    requestPromptTokens = registry.histogram("vllm:request_prompt_tokens",
        "Number of prefill tokens processed.", tokenBuckets, m);
    requestGenerationTokens = registry.histogram("vllm:request_generation_tokens",
        "Number of generation tokens processed.", tokenBuckets, m);
    requestMaxTokens = registry.histogram("vllm:request_params_max_tokens",
        "Histogram of the max_tokens request parameter.", tokenBuckets, m);
    engineLag = registry.histogram("modelplane_simulator_token_lag_seconds",
        "Wall-clock lateness of each token against the latency model, in model seconds (not a vLLM metric).",
        new double[] {0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0}, m);

    running.set(0, model);
    waiting.set(0, model);
    kvUsage.set(0, model);
    gpuCacheUsage.set(0, model);
    cacheConfig.set(1, String.valueOf(blockSize), String.valueOf(numBlocks), prefixCaching ? "True" : "False",
        "auto", model);
    prefixQueries.touch(model);
    prefixHits.touch(model);
    promptTokens.touch(model);
    generationTokens.touch(model);
    preemptions.touch(model);
    for (String r : FINISH_REASONS) {
      success.touch(model, r);
    }
    for (HistogramFamily h : List.of(ttft, itl, tpot, requestTpot, e2e, queueTime, inferenceTime,
        prefillTime, decodeTime, requestPromptTokens, requestGenerationTokens, requestMaxTokens, engineLag)) {
      h.touch(model);
    }
  }

  /** vLLM's 1-2-5 series up to {@code max}. */
  static double[] buckets125(int max) {
    List<Double> out = new ArrayList<>();
    for (long p = 1; p <= max; p *= 10) {
      for (int m : new int[] {1, 2, 5}) {
        if (m * p <= max) {
          out.add((double) (m * p));
        }
      }
    }
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** The text exposition (format 0.0.4) of every metric, from one snapshot per metric. */
  /** A sequence was admitted for the first time: prefix-cache query and hits, time spent queued. */
  void firstAdmitted(int queriedTokens, int cachedTokens, double queuedSeconds) {
    prefixQueries.add(queriedTokens, model);
    prefixHits.add(cachedTokens, model);
    queueTime.observe(queuedSeconds, model);
  }

  /** A sequence's first token: time to first token, and its prompt counted as processed. */
  void firstToken(double ttftSeconds, int promptLen) {
    generationTokens.add(1, model);
    ttft.observe(ttftSeconds, model);
    promptTokens.add(promptLen, model);
  }

  /** A later token, {@code itlSeconds} after the previous one (the hottest path: its series are kept). */
  void nextToken(double itlSeconds) {
    if (tokenSeries == null) {
      tokenSeries = generationTokens.metric().labelValues(model);
      itlSeries = itl.child(model);
      tpotSeries = tpot.child(model);
    }
    tokenSeries.inc();
    itlSeries.observe(itlSeconds);
    tpotSeries.observe(itlSeconds);
  }

  private io.prometheus.metrics.core.datapoints.CounterDataPoint tokenSeries;
  private io.prometheus.metrics.core.datapoints.DistributionDataPoint itlSeries;
  private io.prometheus.metrics.core.datapoints.DistributionDataPoint tpotSeries;

  /** A sequence ended with {@code reason}; aborted ones count only as a finished request. */
  void finished(Sequence s, String reason, long nowNanos) {
    success.add(1, model, reason);
    if ("abort".equals(reason)) {
      return;
    }
    e2e.observe(EngineLoop.seconds(nowNanos - s.arrivalNanos), model);
    inferenceTime.observe(EngineLoop.seconds(nowNanos - s.admitNanos), model);
    prefillTime.observe(EngineLoop.seconds(s.firstTokenNanos - s.admitNanos), model);
    decodeTime.observe(EngineLoop.seconds(nowNanos - s.firstTokenNanos), model);
    if (s.generated > 1) {
      requestTpot.observe(EngineLoop.seconds(nowNanos - s.firstTokenNanos) / (s.generated - 1), model);
    }
    requestPromptTokens.observe(s.promptLen, model);
    requestGenerationTokens.observe(s.generated, model);
    requestMaxTokens.observe(s.maxTokensParam, model);
  }

  String scrape() {
    return registry.scrape();
  }
}
