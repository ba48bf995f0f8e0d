package dev.modelplane.simulator;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

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
  private static final PrometheusTextFormatWriter TEXT = PrometheusTextFormatWriter.create();

  private final PrometheusRegistry registry = new PrometheusRegistry();
  final String model;
  final GaugeFamily running;
  final GaugeFamily waiting;
  final GaugeFamily kvUsage;
  final GaugeFamily gpuCacheUsage;
  final GaugeFamily cacheConfig;
  final SingleSeriesGauge loraInfo;
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
    running = gauge("vllm:num_requests_running",
        "Number of requests in model execution batches.", m);
    waiting = gauge("vllm:num_requests_waiting",
        "Number of requests waiting to be processed.", m);
    kvUsage = gauge("vllm:kv_cache_usage_perc",
        "KV-cache usage. 1 means 100 percent usage.", m);
    gpuCacheUsage = gauge("vllm:gpu_cache_usage_perc",
        "GPU KV-cache usage. 1 means 100 percent usage. Deprecated: use vllm:kv_cache_usage_perc.", m);
    cacheConfig = gauge("vllm:cache_config_info",
        "Information of the LLMEngine CacheConfig.", "block_size", "num_gpu_blocks", "enable_prefix_caching",
        "cache_dtype", "model_name");
    loraInfo = new SingleSeriesGauge("vllm:lora_requests_info",
        "Running stats on lora requests.", registry, "max_lora", "running_lora_adapters", "waiting_lora_adapters");
    prefixQueries = counter("vllm:prefix_cache_queries_total",
        "Prefix cache queries, in terms of number of queried tokens.", m);
    prefixHits = counter("vllm:prefix_cache_hits_total",
        "Prefix cache hits, in terms of number of cached tokens.", m);
    promptTokens = counter("vllm:prompt_tokens_total",
        "Number of prefill tokens processed.", m);
    generationTokens = counter("vllm:generation_tokens_total",
        "Number of generation tokens processed.", m);
    preemptions = counter("vllm:num_preemptions_total",
        "Cumulative number of preemption from the engine.", m);
    success = counter("vllm:request_success_total",
        "Count of successfully processed requests.", m, "finished_reason");
    ttft = histogram("vllm:time_to_first_token_seconds",
        "Histogram of time to first token in seconds.", TTFT_BUCKETS, m);
    itl = histogram("vllm:inter_token_latency_seconds",
        "Histogram of inter-token latency in seconds.", ITL_BUCKETS, m);
    tpot = histogram("vllm:time_per_output_token_seconds",
        "Histogram of time per output token in seconds. Deprecated: use vllm:inter_token_latency_seconds.",
        ITL_BUCKETS, m);
    requestTpot = histogram("vllm:request_time_per_output_token_seconds",
        "Histogram of time_per_output_token_seconds per request.", ITL_BUCKETS, m);
    e2e = histogram("vllm:e2e_request_latency_seconds",
        "Histogram of e2e request latency in seconds.", REQUEST_BUCKETS, m);
    queueTime = histogram("vllm:request_queue_time_seconds",
        "Histogram of time spent in WAITING phase for request.", REQUEST_BUCKETS, m);
    inferenceTime = histogram("vllm:request_inference_time_seconds",
        "Histogram of time spent in RUNNING phase for request.", REQUEST_BUCKETS, m);
    prefillTime = histogram("vllm:request_prefill_time_seconds",
        "Histogram of time spent in PREFILL phase for request.", REQUEST_BUCKETS, m);
    decodeTime = histogram("vllm:request_decode_time_seconds",
        "Histogram of time spent in DECODE phase for request.", REQUEST_BUCKETS, m);
    double[] tokenBuckets = buckets125(maxModelLen);
    requestPromptTokens = histogram("vllm:request_prompt_tokens",
        "Number of prefill tokens processed.", tokenBuckets, m);
    requestGenerationTokens = histogram("vllm:request_generation_tokens",
        "Number of generation tokens processed.", tokenBuckets, m);
    requestMaxTokens = histogram("vllm:request_params_max_tokens",
        "Histogram of the max_tokens request parameter.", tokenBuckets, m);
    engineLag = histogram("modelplane_simulator_token_lag_seconds",
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
    prefixQueries.inc(queriedTokens, model);
    prefixHits.inc(cachedTokens, model);
    queueTime.observe(queuedSeconds, model);
  }

  /** A sequence's first token: time to first token, and its prompt counted as processed. */
  void firstToken(double ttftSeconds, int promptLen) {
    generationTokens.inc(1, model);
    ttft.observe(ttftSeconds, model);
    promptTokens.inc(promptLen, model);
  }

  /** A later token, {@code itlSeconds} after the previous one. */
  void nextToken(double itlSeconds) {
    generationTokens.inc(1, model);
    itl.observe(itlSeconds, model);
    tpot.observe(itlSeconds, model);
  }

  /** A sequence ended with {@code reason}; aborted ones count only as a finished request. */
  void finished(Sequence s, String reason, long nowNanos) {
    success.inc(1, model, reason);
    if ("abort".equals(reason)) {
      return;
    }
    e2e.observe(Engine.seconds(nowNanos - s.arrivalNanos), model);
    inferenceTime.observe(Engine.seconds(nowNanos - s.admitNanos), model);
    prefillTime.observe(Engine.seconds(s.firstTokenNanos - s.admitNanos), model);
    decodeTime.observe(Engine.seconds(nowNanos - s.firstTokenNanos), model);
    if (s.generated > 1) {
      requestTpot.observe(Engine.seconds(nowNanos - s.firstTokenNanos) / (s.generated - 1), model);
    }
    requestPromptTokens.observe(s.promptLen, model);
    requestGenerationTokens.observe(s.generated, model);
    requestMaxTokens.observe(s.maxTokensParam, model);
  }

  String scrape() {
    ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
    try {
      TEXT.write(out, registry.scrape());
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not throw
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private CounterFamily counter(String name, String help, String... labels) {
    // The client strips "_total" from the name and writes it back on the samples: the exposed name is unchanged.
    return new CounterFamily(Counter.builder().name(name).help(help).labelNames(labels).withoutExemplars()
        .register(registry));
  }

  private GaugeFamily gauge(String name, String help, String... labels) {
    return new GaugeFamily(Gauge.builder().name(name).help(help).labelNames(labels).withoutExemplars()
        .register(registry));
  }

  private HistogramFamily histogram(String name, String help, double[] bounds, String... labels) {
    return new HistogramFamily(Histogram.builder().name(name).help(help).labelNames(labels).classicOnly()
        .classicUpperBounds(bounds).withoutExemplars().register(registry));
  }

  /** A gauge addressed by its label values in each call. */
  record GaugeFamily(Gauge metric) {
    void set(double value, String... labelValues) {
      metric.labelValues(labelValues).set(value);
    }
  }

  /** A counter addressed by its label values in each call. */
  record CounterFamily(Counter metric) {
    void inc(double by, String... labelValues) {
      metric.labelValues(labelValues).inc(by);
    }

    /** Makes the series exist at 0, so it is visible before the first event. */
    void touch(String... labelValues) {
      metric.initLabelValues(labelValues);
    }
  }

  /** A histogram addressed by its label values in each call. */
  record HistogramFamily(Histogram metric) {
    void observe(double value, String... labelValues) {
      metric.labelValues(labelValues).observe(value);
    }

    void touch(String... labelValues) {
      metric.initLabelValues(labelValues);
    }
  }

  /**
   * A gauge with exactly one series whose labels change as a whole (vLLM's {@code *_info} gauges): the current series
   * is one immutable value swapped atomically, so a scrape sees either the old or the new series, never none or both.
   */
  static final class SingleSeriesGauge {
    private record Series(double value, String[] labelValues) {
    }

    private final AtomicReference<Series> current = new AtomicReference<>();

    SingleSeriesGauge(String name, String help, PrometheusRegistry registry, String... labels) {
      GaugeWithCallback.builder().name(name).help(help).labelNames(labels).callback(callback -> {
        Series s = current.get();
        if (s != null) {
          callback.call(s.value(), s.labelValues());
        }
      }).register(registry);
    }

    void replace(double value, String... labelValues) {
      current.set(new Series(value, labelValues.clone()));
    }
  }
}
