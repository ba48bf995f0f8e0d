package dev.modelplane.simulator;

import java.util.ArrayList;
import java.util.List;

/**
 * The vLLM metrics of one rank, under vLLM's names and labels ({@code model_name} = the first served name).
 * Times are model time (see {@code --time-scale}).
 */
final class EngineMetrics {
  static final double[] TTFT_BUCKETS = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5,
      5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};
  static final double[] ITL_BUCKETS = {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0,
      7.5, 10.0, 20.0, 40.0, 80.0};
  static final double[] REQUEST_BUCKETS = {0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0,
      50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};
  static final String[] FINISH_REASONS = {"stop", "length", "abort"};

  final PromRegistry registry = new PromRegistry();
  final String model;
  final PromRegistry.Gauge running;
  final PromRegistry.Gauge waiting;
  final PromRegistry.Gauge kvUsage;
  final PromRegistry.Gauge gpuCacheUsage;
  final PromRegistry.Gauge cacheConfig;
  final PromRegistry.Gauge loraInfo;
  final PromRegistry.Counter prefixQueries;
  final PromRegistry.Counter prefixHits;
  final PromRegistry.Counter promptTokens;
  final PromRegistry.Counter generationTokens;
  final PromRegistry.Counter preemptions;
  final PromRegistry.Counter success;
  final PromRegistry.Histogram ttft;
  final PromRegistry.Histogram itl;
  final PromRegistry.Histogram tpot;
  final PromRegistry.Histogram requestTpot;
  final PromRegistry.Histogram e2e;
  final PromRegistry.Histogram queueTime;
  final PromRegistry.Histogram inferenceTime;
  final PromRegistry.Histogram prefillTime;
  final PromRegistry.Histogram decodeTime;
  final PromRegistry.Histogram requestPromptTokens;
  final PromRegistry.Histogram requestGenerationTokens;
  final PromRegistry.Histogram requestMaxTokens;
  final PromRegistry.Histogram engineLag;

  EngineMetrics(String model, int blockSize, int numBlocks, int maxModelLen, boolean prefixCaching) {
    this.model = model;
    String m = "model_name";
    running = registry.register(new PromRegistry.Gauge("vllm:num_requests_running",
        "Number of requests in model execution batches.", m));
    waiting = registry.register(new PromRegistry.Gauge("vllm:num_requests_waiting",
        "Number of requests waiting to be processed.", m));
    kvUsage = registry.register(new PromRegistry.Gauge("vllm:kv_cache_usage_perc",
        "KV-cache usage. 1 means 100 percent usage.", m));
    gpuCacheUsage = registry.register(new PromRegistry.Gauge("vllm:gpu_cache_usage_perc",
        "GPU KV-cache usage. 1 means 100 percent usage. Deprecated: use vllm:kv_cache_usage_perc.", m));
    cacheConfig = registry.register(new PromRegistry.Gauge("vllm:cache_config_info",
        "Information of the LLMEngine CacheConfig.", "block_size", "num_gpu_blocks", "enable_prefix_caching",
        "cache_dtype", "model_name"));
    loraInfo = registry.register(new PromRegistry.Gauge("vllm:lora_requests_info",
        "Running stats on lora requests.", "max_lora", "running_lora_adapters", "waiting_lora_adapters"));
    prefixQueries = registry.register(new PromRegistry.Counter("vllm:prefix_cache_queries",
        "Prefix cache queries, in terms of number of queried tokens.", m));
    prefixHits = registry.register(new PromRegistry.Counter("vllm:prefix_cache_hits",
        "Prefix cache hits, in terms of number of cached tokens.", m));
    promptTokens = registry.register(new PromRegistry.Counter("vllm:prompt_tokens",
        "Number of prefill tokens processed.", m));
    generationTokens = registry.register(new PromRegistry.Counter("vllm:generation_tokens",
        "Number of generation tokens processed.", m));
    preemptions = registry.register(new PromRegistry.Counter("vllm:num_preemptions",
        "Cumulative number of preemption from the engine.", m));
    success = registry.register(new PromRegistry.Counter("vllm:request_success",
        "Count of successfully processed requests.", m, "finished_reason"));
    ttft = registry.register(new PromRegistry.Histogram("vllm:time_to_first_token_seconds",
        "Histogram of time to first token in seconds.", TTFT_BUCKETS, m));
    itl = registry.register(new PromRegistry.Histogram("vllm:inter_token_latency_seconds",
        "Histogram of inter-token latency in seconds.", ITL_BUCKETS, m));
    tpot = registry.register(new PromRegistry.Histogram("vllm:time_per_output_token_seconds",
        "Histogram of time per output token in seconds. Deprecated: use vllm:inter_token_latency_seconds.",
        ITL_BUCKETS, m));
    requestTpot = registry.register(new PromRegistry.Histogram("vllm:request_time_per_output_token_seconds",
        "Histogram of time_per_output_token_seconds per request.", ITL_BUCKETS, m));
    e2e = registry.register(new PromRegistry.Histogram("vllm:e2e_request_latency_seconds",
        "Histogram of e2e request latency in seconds.", REQUEST_BUCKETS, m));
    queueTime = registry.register(new PromRegistry.Histogram("vllm:request_queue_time_seconds",
        "Histogram of time spent in WAITING phase for request.", REQUEST_BUCKETS, m));
    inferenceTime = registry.register(new PromRegistry.Histogram("vllm:request_inference_time_seconds",
        "Histogram of time spent in RUNNING phase for request.", REQUEST_BUCKETS, m));
    prefillTime = registry.register(new PromRegistry.Histogram("vllm:request_prefill_time_seconds",
        "Histogram of time spent in PREFILL phase for request.", REQUEST_BUCKETS, m));
    decodeTime = registry.register(new PromRegistry.Histogram("vllm:request_decode_time_seconds",
        "Histogram of time spent in DECODE phase for request.", REQUEST_BUCKETS, m));
    double[] tokenBuckets = buckets125(maxModelLen);
    requestPromptTokens = registry.register(new PromRegistry.Histogram("vllm:request_prompt_tokens",
        "Number of prefill tokens processed.", tokenBuckets, m));
    requestGenerationTokens = registry.register(new PromRegistry.Histogram("vllm:request_generation_tokens",
        "Number of generation tokens processed.", tokenBuckets, m));
    requestMaxTokens = registry.register(new PromRegistry.Histogram("vllm:request_params_max_tokens",
        "Histogram of the max_tokens request parameter.", tokenBuckets, m));
    engineLag = registry.register(new PromRegistry.Histogram("modelplane_simulator_token_lag_seconds",
        "Wall-clock lateness of each token against the latency model, in model seconds (not a vLLM metric).",
        new double[] {0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0}, m));

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
    for (PromRegistry.Histogram h : List.of(ttft, itl, tpot, requestTpot, e2e, queueTime, inferenceTime,
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
}
