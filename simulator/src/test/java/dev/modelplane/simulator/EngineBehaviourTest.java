package dev.modelplane.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The behaviours routing depends on, each against its own in-process simulator on loopback. Timing assertions
 * compare runs with each other (orderings and large ratios), never against wall-clock limits.
 */
class EngineBehaviourTest {

  static String words(String prefix, int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append(prefix).append(i).append(' ');
    }
    return sb.toString();
  }

  static SimulatorConfig base() {
    return SimulatorConfig.of("m").host("127.0.0.1").port(0).seed(42);
  }

  /** Polls /metrics until {@code until} holds (at most ~10 s); returns the last scrape. */
  static String awaitMetrics(SimClient c, Predicate<String> until) throws Exception {
    String m = c.metrics();
    for (int i = 0; i < 500 && !until.test(m); i++) {
      Thread.sleep(20);
      m = c.metrics();
    }
    return m;
  }

  static CompletableFuture<SimClient.Stream> async(SimClient c, String path, String body) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return c.stream(path, body);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
  }

  @Test
  void ttftGrowsWithUncachedPromptTokensAndDropsOnAPrefixHit() throws Exception {
    try (Simulator sim = Simulator.start(base().prefillOverhead(Duration.ofMillis(5))
        .prefillTimePerToken(Duration.ofMillis(3)).interTokenLatency(Duration.ofMillis(1)))) {
      SimClient c = new SimClient(sim.port());
      c.stream("/v1/completions", SimClient.completion("m", words("warm", 16), 2, true)); // JIT, connections
      double shortTtft = c.stream("/v1/completions", SimClient.completion("m", words("a", 16), 2, true)).ttftSeconds();
      double midTtft = c.stream("/v1/completions", SimClient.completion("m", words("b", 200), 2, true)).ttftSeconds();
      String longPrompt = words("c", 400);
      double longTtft = c.stream("/v1/completions", SimClient.completion("m", longPrompt, 2, true)).ttftSeconds();
      SimClient.Stream again = c.stream("/v1/completions",
          SimClient.JSON.createObjectNode().put("model", "m").put("prompt", longPrompt).put("max_tokens", 2)
              .put("stream", true).put("ignore_eos", true).set("stream_options",
                  SimClient.JSON.createObjectNode().put("include_usage", true)).toString());
      double hitTtft = again.ttftSeconds();

      // Model: 5 ms + 3 ms per uncached token -> ~53 ms, ~605 ms, ~1205 ms, and ~53 ms with 384 tokens cached.
      assertThat(midTtft).isGreaterThan(shortTtft);
      assertThat(longTtft).isGreaterThan(midTtft);
      assertThat(longTtft).isGreaterThan(2 * shortTtft);
      assertThat(hitTtft).isLessThan(longTtft / 2);
      JsonNode usage = SimClient.JSON.readTree(again.data().get(again.data().size() - 2)).get("usage");
      assertThat(usage.at("/prompt_tokens_details/cached_tokens").asInt()).isEqualTo(384);

      String m = c.metrics();
      assertThat(SimClient.sample(m, "vllm:prefix_cache_queries_total")).isEqualTo(16 + 16 + 200 + 400 + 400);
      assertThat(SimClient.sample(m, "vllm:prefix_cache_hits_total")).isEqualTo(384);
    }
  }

  @Test
  void kvUsageAndWaitingRiseUnderLoadAndFallBack() throws Exception {
    try (Simulator sim = Simulator.start(base().maxNumSeqs(2).kvCacheSize(64).interTokenLatency(Duration.ofMillis(20))
        .prefillOverhead(Duration.ofMillis(1)))) {
      SimClient c = new SimClient(sim.port());
      String idle = c.metrics();
      assertThat(SimClient.sample(idle, "vllm:kv_cache_usage_perc")).isZero();
      assertThat(SimClient.sample(idle, "vllm:num_requests_waiting")).isZero();
      List<CompletableFuture<SimClient.Stream>> load = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        load.add(async(c, "/v1/completions", SimClient.completion("m", words("p" + i + "x", 100), 30, true)));
      }
      String busy = awaitMetrics(c, m -> SimClient.sample(m, "vllm:num_requests_waiting") >= 1
          && SimClient.sample(m, "vllm:kv_cache_usage_perc") > 0);
      assertThat(SimClient.sample(busy, "vllm:num_requests_waiting")).isGreaterThanOrEqualTo(1);
      assertThat(SimClient.sample(busy, "vllm:kv_cache_usage_perc")).isGreaterThan(0);
      assertThat(SimClient.sample(busy, "vllm:gpu_cache_usage_perc"))
          .isEqualTo(SimClient.sample(busy, "vllm:kv_cache_usage_perc"));
      assertThat(SimClient.sample(busy, "vllm:num_requests_running")).isBetween(1.0, 2.0);
      for (CompletableFuture<SimClient.Stream> f : load) {
        assertThat(f.get(60, TimeUnit.SECONDS).data()).hasSize(31);
      }
      String after = awaitMetrics(c, m -> SimClient.sample(m, "vllm:num_requests_running") == 0);
      assertThat(SimClient.sample(after, "vllm:num_requests_waiting")).isZero();
      assertThat(SimClient.sample(after, "vllm:kv_cache_usage_perc")).isZero();
      assertThat(SimClient.sample(after, "vllm:request_success_total", "finished_reason=\"length\"")).isEqualTo(6);
      assertThat(SimClient.sample(after, "vllm:request_queue_time_seconds_count")).isEqualTo(6);
    }
  }

  @Test
  void prefillInterferenceStallsRunningDecodes() throws Exception {
    double[] worstGap = new double[2];
    double[] interference = {0.0, 1.0};
    for (int run = 0; run < 2; run++) {
      try (Simulator sim = Simulator.start(base().prefillInterference(interference[run])
          .interTokenLatency(Duration.ofMillis(10)).prefillTimePerToken(Duration.ofMillis(2)))) {
        SimClient c = new SimClient(sim.port());
        var decoding = async(c, "/v1/completions", SimClient.completion("m", "short prompt", 60, true));
        awaitMetrics(c, m -> SimClient.sample(m, "vllm:generation_tokens_total") >= 5);
        // A 400-token prompt: 800 ms of prefill compute while the first stream decodes.
        c.stream("/v1/completions", SimClient.completion("m", words("big", 400), 1, true));
        List<Long> arrivals = decoding.get(60, TimeUnit.SECONDS).arrivals();
        for (int i = 1; i < arrivals.size(); i++) {
          worstGap[run] = Math.max(worstGap[run], (arrivals.get(i) - arrivals.get(i - 1)) / 1e9);
        }
      }
    }
    // Off: prefills run beside decoding (the peer's model); on: the decode step waits for the prefill.
    assertThat(worstGap[1]).isGreaterThan(2 * worstGap[0]);
  }

  @Test
  void aFullQueueAnswers429() throws Exception {
    // Each request decodes for ~2 s, so the queue is still full when the third arrives even on a loaded machine.
    try (Simulator sim = Simulator.start(base().maxNumSeqs(1).maxWaitingQueueLength(1)
        .interTokenLatency(Duration.ofMillis(50)))) {
      SimClient c = new SimClient(sim.port());
      var first = async(c, "/v1/completions", SimClient.completion("m", "first", 40, true));
      awaitMetrics(c, m -> SimClient.sample(m, "vllm:num_requests_running") == 1);
      var second = async(c, "/v1/completions", SimClient.completion("m", "second", 1, true));
      awaitMetrics(c, m -> SimClient.sample(m, "vllm:num_requests_waiting") == 1);
      SimClient.Response third = c.post("/v1/completions", SimClient.completion("m", "third", 20, false));
      assertThat(third.status()).isEqualTo(429);
      assertThat(third.json().at("/error/type").asText()).isEqualTo("RateLimitError");
      assertThat(third.json().at("/error/code").isNull()).isTrue();
      assertThat(first.get(60, TimeUnit.SECONDS).status()).isEqualTo(200);
      assertThat(second.get(60, TimeUnit.SECONDS).status()).isEqualTo(200);
    }
  }

  @Test
  void aRunningLoraAdapterAppearsInLoraRequestsInfo() throws Exception {
    try (Simulator sim = Simulator.start(base().maxLoras(1).interTokenLatency(Duration.ofMillis(50))
        .loraModules(List.of("a1=/loras/a1", "a2=/loras/a2")))) {
      SimClient c = new SimClient(sim.port());
      var one = async(c, "/v1/completions", SimClient.completion("a1", "adapter one", 40, true));
      String m = awaitMetrics(c, s -> s.contains("running_lora_adapters=\"a1\""));
      assertThat(m).contains("vllm:lora_requests_info{max_lora=\"1\",running_lora_adapters=\"a1\","
          + "waiting_lora_adapters=\"\"}");
      // max-loras 1: a second adapter waits for the first to drain.
      var two = async(c, "/v1/completions", SimClient.completion("a2", "adapter two", 5, true));
      m = awaitMetrics(c, s -> s.contains("waiting_lora_adapters=\"a2\""));
      assertThat(m).contains("running_lora_adapters=\"a1\",waiting_lora_adapters=\"a2\"");
      assertThat(SimClient.sample(m, "vllm:lora_requests_info")).isGreaterThan(1.7e9);
      assertThat(one.get(60, TimeUnit.SECONDS).status()).isEqualTo(200);
      assertThat(two.get(60, TimeUnit.SECONDS).status()).isEqualTo(200);
      assertThat(awaitMetrics(c, s -> s.contains("running_lora_adapters=\"\",waiting_lora_adapters=\"\"")))
          .contains("running_lora_adapters=\"\",waiting_lora_adapters=\"\"");
    }
  }

  @Test
  void tooSmallAKvCachePreemptsAndStillFinishesEverything() throws Exception {
    try (Simulator sim = Simulator.start(base().maxNumSeqs(4).kvCacheSize(8).interTokenLatency(Duration.ofMillis(2)))) {
      SimClient c = new SimClient(sim.port());
      List<CompletableFuture<SimClient.Stream>> load = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        load.add(async(c, "/v1/completions", SimClient.completion("m", words("q" + i + "y", 20), 40, true)));
      }
      for (CompletableFuture<SimClient.Stream> f : load) {
        assertThat(f.get(60, TimeUnit.SECONDS).data()).hasSize(41);
      }
      String m = awaitMetrics(c, s -> SimClient.sample(s, "vllm:num_requests_running") == 0);
      assertThat(SimClient.sample(m, "vllm:num_preemptions_total")).isGreaterThan(0);
      assertThat(SimClient.sample(m, "vllm:kv_cache_usage_perc")).isZero();
    }
  }

  @Test
  void injectedFailuresUseThePeersStatusCodes() throws Exception {
    try (Simulator sim = Simulator.start(base().failureInjectionRate(100).failureTypes(List.of("rate_limit")))) {
      SimClient.Response r = new SimClient(sim.port()).post("/v1/completions", SimClient.completion("m", "x", 1, false));
      assertThat(r.status()).isEqualTo(429);
      assertThat(r.json().at("/error/message").asText()).contains("Rate limit reached for m");
      assertThat(r.json().at("/error/code").asText()).isEqualTo("rate_limit_exceeded");
    }
    try (Simulator sim = Simulator.start(base().failureInjectionRate(100)
        .failureTypes(List.of("invalid_api_key", "server_error")))) {
      SimClient c = new SimClient(sim.port());
      for (int i = 0; i < 10; i++) {
        assertThat(c.post("/v1/chat/completions", "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}")
            .status()).isIn(401, 503);
      }
    }
  }

  @Test
  void healthIs503DuringTheStartupDelay() throws Exception {
    try (Simulator sim = Simulator.start(base().startupDuration(Duration.ofSeconds(2)))) {
      SimClient c = new SimClient(sim.port());
      assertThat(c.get("/health").status()).isEqualTo(503);
      assertThat(c.post("/v1/completions", SimClient.completion("m", "x", 1, false)).status()).isEqualTo(503);
      int status = 503;
      for (int i = 0; i < 400 && status == 503; i++) {
        Thread.sleep(25);
        status = c.get("/health").status();
      }
      assertThat(status).isEqualTo(200);
      assertThat(c.post("/v1/completions", SimClient.completion("m", "x", 1, false)).status()).isEqualTo(200);
    }
  }

  @Test
  void dataParallelRanksListenOnConsecutivePortsWithTheirOwnMetrics() throws Exception {
    try (Simulator sim = Simulator.start(base().dataParallelSize(2))) {
      List<Integer> ports = sim.ports();
      assertThat(ports).hasSize(2);
      assertThat(ports.get(1)).isEqualTo(ports.get(0) + 1);
      SimClient r0 = new SimClient(ports.get(0));
      SimClient r1 = new SimClient(ports.get(1));
      assertThat(r1.post("/v1/completions", SimClient.completion("m", "rank one", 3, false)).status()).isEqualTo(200);
      assertThat(SimClient.sample(r1.metrics(), "vllm:generation_tokens_total")).isEqualTo(3);
      assertThat(SimClient.sample(r0.metrics(), "vllm:generation_tokens_total")).isZero();
    }
  }

  @Test
  void theTimeScaleKeepsTheOutputAndShortensTheRun() throws Exception {
    List<String> texts = new ArrayList<>();
    long[] wall = new long[2];
    double[] scales = {1.0, 0.1};
    for (int run = 0; run < 2; run++) {
      try (Simulator sim = Simulator.start(base().mode("random").timeScale(scales[run])
          .interTokenLatency(Duration.ofMillis(20)).prefillOverhead(Duration.ofMillis(20)))) {
        SimClient c = new SimClient(sim.port());
        long t0 = System.nanoTime();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 3; i++) {
          sb.append(c.post("/v1/completions", SimClient.completion("m", "same prompt " + i, 15, false)).json()
              .at("/choices/0/text").asText()).append('|');
        }
        wall[run] = System.nanoTime() - t0;
        texts.add(sb.toString());
        // Metrics stay in model time: three requests of 20 ms prefill + 14 x 20 ms decode.
        assertThat(SimClient.sample(c.metrics(), "vllm:e2e_request_latency_seconds_count")).isEqualTo(3);
      }
    }
    assertThat(texts.get(1)).isEqualTo(texts.get(0));
    assertThat(wall[1]).isLessThan(wall[0]);
  }
}
