package dev.modelplane.router.datalayer;

import dev.modelplane.common.metrics.PrometheusTextParser;
import dev.modelplane.router.pool.MetricsSnapshot;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MetricsExtractorTest {
  private static final String VLLM = """
      # HELP vllm:num_requests_running Number of requests in model execution batches.
      # TYPE vllm:num_requests_running gauge
      vllm:num_requests_running{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 3.0
      # TYPE vllm:num_requests_waiting gauge
      vllm:num_requests_waiting{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 7.0
      # TYPE vllm:kv_cache_usage_perc gauge
      vllm:kv_cache_usage_perc{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 0.42
      # TYPE vllm:cache_config_info gauge
      vllm:cache_config_info{block_size="16",cache_dtype="auto",num_gpu_blocks="27000",prefix_caching="True"} 1.0
      # TYPE vllm:lora_requests_info gauge
      vllm:lora_requests_info{max_lora="4",running_lora_adapters="sql-lora,tweet",waiting_lora_adapters=""} 1.7e9
      vllm:lora_requests_info{max_lora="4",running_lora_adapters="old",waiting_lora_adapters="x"} 1.6e9
      # TYPE vllm:e2e_request_latency_seconds histogram
      vllm:e2e_request_latency_seconds_bucket{le="0.3",model_name="m"} 0.0
      vllm:e2e_request_latency_seconds_bucket{le="+Inf",model_name="m"} 10.0
      """;

  @Test
  void extractsVllmSignals() {
    MetricsExtractor ex = MetricsExtractor.defaults();
    MetricsSnapshot s = ex.extract(VLLM, ex.mappingFor(Map.of()), MetricsSnapshot.NONE, 1234);
    assertThat(s.waitingQueueSize()).isEqualTo(7);
    assertThat(s.runningRequests()).isEqualTo(3);
    assertThat(s.kvCacheUsage()).isEqualTo(0.42);
    assertThat(s.cacheBlockSize()).isEqualTo(16);
    assertThat(s.cacheNumBlocks()).isEqualTo(27000);
    // The LoRA series with the newest timestamp value wins.
    assertThat(s.activeModels()).containsExactlyInAnyOrder("sql-lora", "tweet");
    assertThat(s.waitingModels()).isEmpty();
    assertThat(s.maxActiveModels()).isEqualTo(4);
    assertThat(s.updated()).isTrue();
    assertThat(s.updateTimeNanos()).isEqualTo(1234);
  }

  @Test
  void pageWithoutAnySignalKeepsTheOldSnapshot() {
    MetricsExtractor ex = MetricsExtractor.defaults();
    MetricsSnapshot old = MetricsSnapshot.of(1, 0.1, 5);
    assertThat(ex.extract("# nothing\nfoo 1\n", ex.mappingFor(Map.of()), old, 99)).isSameAs(old);
  }

  @Test
  void sglangUsesItsNamesAndPageLabels() {
    String page = """
        sglang:num_queue_reqs{model_name="m"} 4
        sglang:num_running_reqs{model_name="m"} 2
        sglang:token_usage{model_name="m"} 0.5
        sglang:cache_config_info{page_size="32",num_pages="900"} 1
        """;
    MetricsExtractor ex = MetricsExtractor.defaults();
    MetricsSnapshot s = ex.extract(page, ex.mappingFor(Map.of(MetricsExtractor.ENGINE_TYPE_LABEL, "sglang")),
        MetricsSnapshot.NONE, 1);
    assertThat(s.waitingQueueSize()).isEqualTo(4);
    assertThat(s.runningRequests()).isEqualTo(2);
    assertThat(s.kvCacheUsage()).isEqualTo(0.5);
    assertThat(s.cacheBlockSize()).isEqualTo(32);
    assertThat(s.cacheNumBlocks()).isEqualTo(900);
  }

  @Test
  void tritonTrtLlmSelectsSeriesByLabel() {
    String page = """
        nv_trt_llm_request_metrics{model="ensemble",request_type="waiting",version="1"} 6
        nv_trt_llm_request_metrics{model="ensemble",request_type="scheduled",version="1"} 9
        nv_trt_llm_request_metrics{model="ensemble",request_type="context",version="1"} 1
        nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="fraction",model="e"} 0.25
        nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="tokens_per",model="e"} 64
        nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="max",model="e"} 5000
        """;
    MetricsExtractor ex = MetricsExtractor.defaults();
    MetricsSnapshot s = ex.extract(page,
        ex.mappingFor(Map.of(MetricsExtractor.ENGINE_TYPE_LABEL, "triton-tensorrt-llm")), MetricsSnapshot.NONE, 1);
    assertThat(s.waitingQueueSize()).isEqualTo(6);
    assertThat(s.runningRequests()).isEqualTo(9);
    assertThat(s.kvCacheUsage()).isEqualTo(0.25);
    assertThat(s.cacheBlockSize()).isEqualTo(64);
    assertThat(s.cacheNumBlocks()).isEqualTo(5000);
  }

  @Test
  void trtllmServeAndLlamaCpp() {
    MetricsExtractor ex = MetricsExtractor.defaults();
    MetricsSnapshot t = ex.extract("""
        trtllm_num_requests_waiting 2
        trtllm_num_requests_running 5
        trtllm_kv_cache_utilization 0.75
        trtllm_kv_cache_tokens_per_block 32
        trtllm_kv_cache_max_blocks 100
        """, ex.mappingFor(Map.of(MetricsExtractor.ENGINE_TYPE_LABEL, "trtllm-serve")), MetricsSnapshot.NONE, 1);
    assertThat(List.of(t.waitingQueueSize(), t.runningRequests(), t.cacheBlockSize(), t.cacheNumBlocks()))
        .containsExactly(2, 5, 32, 100);
    MetricsSnapshot l = ex.extract("""
        # HELP llamacpp:requests_processing Number of requests processing.
        llamacpp:requests_processing 1
        llamacpp:requests_deferred 3
        llamacpp:kv_cache_usage_ratio 0.3
        """, ex.mappingFor(Map.of(MetricsExtractor.ENGINE_TYPE_LABEL, "llamacpp")), MetricsSnapshot.NONE, 1);
    assertThat(l.waitingQueueSize()).isEqualTo(3);
    assertThat(l.runningRequests()).isEqualTo(1);
    assertThat(l.kvCacheUsage()).isEqualTo(0.3);
  }

  @Test
  void latestSeriesIsTheOneWithTheHighestTimestamp() {
    var families = PrometheusTextParser.parse("m{a=\"1\"} 1 100\nm{a=\"1\"} 2 300\nm{a=\"1\"} 3 200\n", Set.of("m"));
    assertThat(MetricSpec.parse("m{a=1}").latest(families).value()).isEqualTo(2);
    assertThat(MetricSpec.parse("m{a=\"2\"}").latest(families)).isNull();
    assertThat(MetricSpec.parse("")).isNull();
    assertThat(MetricSpec.parse("x{a=b, c=\"d\"}").labels()).containsEntry("a", "b").containsEntry("c", "d");
  }
}
