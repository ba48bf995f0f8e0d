package dev.modelplane.router.datalayer;


import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Where one model-server engine publishes the signals the scheduler needs. Null specs mean "not published".
 *
 * @param engine engine name, matched against the pod label {@code inference.networking.k8s.io/engine-type}
 * @param queued waiting requests
 * @param running running requests
 * @param kvUsage KV-cache utilisation (0..1)
 * @param lora LoRA info gauge with {@code running_lora_adapters}, {@code waiting_lora_adapters}, {@code max_lora}
 * @param cacheInfo info gauge whose labels carry the block size and block count
 * @param blockSizeLabel label of {@code cacheInfo} holding the block size ({@code block_size} by default)
 * @param numBlocksLabel label of {@code cacheInfo} holding the block count ({@code num_gpu_blocks} by default)
 * @param cacheBlockSize gauge whose value is the block size (engines without an info metric)
 * @param cacheNumBlocks gauge whose value is the block count
 */
public record EngineMapping(
    String engine,
    MetricSpec queued,
    MetricSpec running,
    MetricSpec kvUsage,
    MetricSpec lora,
    MetricSpec cacheInfo,
    String blockSizeLabel,
    String numBlocksLabel,
    MetricSpec cacheBlockSize,
    MetricSpec cacheNumBlocks) {

  /** The engine GIE assumes when a pod has no engine-type label. */
  public static final String DEFAULT_ENGINE = "vllm";

  public EngineMapping {
    blockSizeLabel = blockSizeLabel == null || blockSizeLabel.isEmpty() ? "block_size" : blockSizeLabel;
    numBlocksLabel = numBlocksLabel == null || numBlocksLabel.isEmpty() ? "num_gpu_blocks" : numBlocksLabel;
  }

  /** Builds a mapping from GIE's string form of each spec. */
  public static EngineMapping of(String engine, String queued, String running, String kvUsage, String lora,
      String cacheInfo, String blockSizeLabel, String numBlocksLabel, String cacheBlockSize, String cacheNumBlocks) {
    return new EngineMapping(engine, MetricSpec.parse(queued), MetricSpec.parse(running), MetricSpec.parse(kvUsage),
        MetricSpec.parse(lora), MetricSpec.parse(cacheInfo), blockSizeLabel, numBlocksLabel,
        MetricSpec.parse(cacheBlockSize), MetricSpec.parse(cacheNumBlocks));
  }

  /** GIE's built-in engines (vLLM, SGLang, trtllm-serve, Triton TensorRT-LLM) plus llama.cpp's server. */
  public static List<EngineMapping> defaults() {
    return List.of(
        of("vllm", "vllm:num_requests_waiting", "vllm:num_requests_running", "vllm:kv_cache_usage_perc",
            "vllm:lora_requests_info", "vllm:cache_config_info", null, null, null, null),
        of("sglang", "sglang:num_queue_reqs", "sglang:num_running_reqs", "sglang:token_usage", null,
            "sglang:cache_config_info", "page_size", "num_pages", null, null),
        of("trtllm-serve", "trtllm_num_requests_waiting", "trtllm_num_requests_running",
            "trtllm_kv_cache_utilization", null, null, null, null, "trtllm_kv_cache_tokens_per_block",
            "trtllm_kv_cache_max_blocks"),
        of("triton-tensorrt-llm", "nv_trt_llm_request_metrics{request_type=waiting}",
            "nv_trt_llm_request_metrics{request_type=scheduled}",
            "nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=fraction}", null, null, null, null,
            "nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=tokens_per}",
            "nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=max}"),
        // llama.cpp's llama-server (--metrics): deferred = queued, processing = running. Newer builds dropped the KV
        // ratio gauge; the scorer then sees 0, as GIE does for any engine without a KV signal.
        of("llamacpp", "llamacpp:requests_deferred", "llamacpp:requests_processing",
            "llamacpp:kv_cache_usage_ratio", null, null, null, null, null, null));
  }

  /** Every metric family name this mapping reads; the parser skips the rest. */
  public Set<String> familyNames() {
    Set<String> names = new HashSet<>();
    for (MetricSpec s : new MetricSpec[] {queued, running, kvUsage, lora, cacheInfo, cacheBlockSize, cacheNumBlocks}) {
      if (s != null) {
        names.add(s.name());
      }
    }
    return names;
  }
}
