package dev.modelplane.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.simulator.physics.ModelCatalog;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The calibrated preset end to end, over HTTP: time to first token grows with the prompt and inter-token latency
 * with the batch's context as the measured H100 table says. Runs at {@code --time-scale} 2–5 (model time slowed
 * down) so the machine's own scheduling noise is small against the model's milliseconds; assertions are ratios.
 */
class StepModelEndToEndTest {

  static SimulatorConfig preset(double timeScale) {
    return SimulatorConfig.of("m").host("127.0.0.1").port(0).seed(7).preset("llama-3.1-8b-h100")
        .timeScale(timeScale);
  }

  /** Model-time TTFT of one request with a {@code tokens}-token prompt, from the server's own histogram. */
  static double ttft(SimClient c, String prefix, int tokens) throws Exception {
    double before = SimClient.sample(c.metrics(), "vllm:time_to_first_token_seconds_sum");
    c.stream("/v1/completions", SimClient.completion("m", EngineBehaviourTest.words(prefix, tokens), 1, true));
    return SimClient.sample(c.metrics(), "vllm:time_to_first_token_seconds_sum") - before;
  }

  @Test
  void timeToFirstTokenGrowsWithThePromptAsTheMeasuredPrefillDoes() throws Exception {
    try (Simulator sim = Simulator.start(preset(5))) {
      SimClient c = new SimClient(sim.port());
      ttft(c, "warm", 64);
      double t128 = ttft(c, "a", 128);
      double t2048 = ttft(c, "b", 2048);
      double t8192 = ttft(c, "c", 8000);
      // Measured on the H100: 9.2, 51.4 and 230.9 ms (5.6x and 25x the 128-token prefill).
      assertThat(t128).isBetween(0.0085, 0.013);
      assertThat(t2048 / t128).isBetween(4.0, 7.0);
      assertThat(t8192 / t128).isBetween(16.0, 30.0);
      assertThat(sim.ports()).hasSize(1);
    }
  }

  /** Median gap between the last 20 tokens of each of {@code streams} concurrent streams, in seconds. */
  static double decodeGap(int streams, int promptTokens) throws Exception {
    try (Simulator sim = Simulator.start(preset(2))) {
      SimClient c = new SimClient(sim.port());
      List<CompletableFuture<SimClient.Stream>> running = new ArrayList<>();
      for (int i = 0; i < streams; i++) {
        running.add(EngineBehaviourTest.async(c, "/v1/completions", SimClient.completion("m",
            EngineBehaviourTest.words("s" + i + "w", promptTokens), 60, true)));
      }
      List<Long> gaps = new ArrayList<>();
      for (CompletableFuture<SimClient.Stream> f : running) {
        List<Long> t = f.get().arrivals();
        assertThat(t.size()).isGreaterThan(40);
        for (int i = t.size() - 21; i < t.size() - 1; i++) {
          gaps.add(t.get(i) - t.get(i - 1));
        }
      }
      Collections.sort(gaps);
      return gaps.get(gaps.size() / 2) / 1e9 / 2;
    }
  }

  @Test
  void interTokenLatencyGrowsWithTheContextTheBatchAttendsTo() throws Exception {
    double shortContext = decodeGap(16, 500);
    double longContext = decodeGap(16, 4000);
    // Predicted (and measured around it): 16 sequences, ~7.4 ms at 512 tokens of context, ~11 ms at 4,096.
    assertThat(shortContext).isBetween(0.005, 0.012);
    assertThat(longContext / shortContext).isBetween(1.2, 2.0);
    assertThat(ModelCatalog.preset("llama-3.1-8b-h100").gpu().name()).isEqualTo("h100");
  }
}
