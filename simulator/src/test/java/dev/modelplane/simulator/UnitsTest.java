package dev.modelplane.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.common.tokenizer.WordTokenizer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Pure units: durations, output text, KV cache, latency model, flags. */
class UnitsTest {
  @Test
  void randomAnswersWithoutMaxTokensAreChatSizedNotContextSized() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(11);
    int[] lengths = java.util.stream.IntStream.range(0, 2000)
        .map(i -> TextGenerator.generate(WordTokenizer.INSTANCE, "random", "", 4096, false, false, List.of(), random).tokens().size()).toArray();
    assertThat(java.util.Arrays.stream(lengths).min().orElseThrow()).isPositive();
    assertThat(java.util.Arrays.stream(lengths).max().orElseThrow()).isLessThanOrEqualTo(4096);
    assertThat(java.util.Arrays.stream(lengths).average().orElseThrow()).isBetween(36.0, 44.0);
    assertThat(TextGenerator.unlimitedLength(5, random)).isBetween(1, 5);
    // With max_tokens the length stays uniform up to the limit.
    assertThat(java.util.stream.IntStream.range(0, 2000)
        .map(i -> TextGenerator.generate(WordTokenizer.INSTANCE, "random", "", 1000, true, false, List.of(), random).tokens().size()).max()
        .orElseThrow()).isGreaterThan(900);
  }

  @Test
  void durationFlagsTakeGoSyntaxOrThePeersMilliseconds() {
    DurationFlag flag = new DurationFlag();
    assertThat(flag.convert("100ms")).isEqualTo(Duration.ofMillis(100));
    assertThat(flag.convert("1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(flag.convert("250us")).isEqualTo(Duration.ofNanos(250_000));
    assertThat(flag.convert("1m30s")).isEqualTo(Duration.ofSeconds(90));
    assertThat(flag.convert("40")).isEqualTo(Duration.ofMillis(40));
    assertThat(flag.convert("0")).isZero();
    assertThatThrownBy(() -> flag.convert("10 parsecs")).isInstanceOf(CommandLine.TypeConversionException.class)
        .hasMessageContaining("\"10 parsecs\"");
    assertThatThrownBy(() -> flag.convert("-5ms")).isInstanceOf(CommandLine.TypeConversionException.class)
        .hasMessageContaining("must not be negative");
    assertThatThrownBy(() -> new CommandLine(new SimulatorCommand()).parseArgs("--inter-token-latency", "-1s"))
        .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("--inter-token-latency");
  }

  @Test
  void loadFactorMatchesThePeer() {
    LatencyModel m = new LatencyModel(SimulatorConfig.of("m").maxNumSeqs(5).timeFactorUnderLoad(3.0), 1);
    assertThat(m.loadFactor(1)).isEqualTo(1.0);
    assertThat(m.loadFactor(3)).isEqualTo(2.0);
    assertThat(m.loadFactor(5)).isEqualTo(3.0);
  }

  @Test
  void prefillAndDecodeFollowThePeersFormulasWithJitterWithinSeventyPercent() {
    SimulatorConfig c = SimulatorConfig.of("m").maxNumSeqs(5).timeFactorUnderLoad(3.0)
        .interTokenLatency(Duration.ofMillis(10)).prefillOverhead(Duration.ofMillis(20))
        .prefillTimePerToken(Duration.ofMillis(1));
    LatencyModel m = new LatencyModel(c, 1);
    assertThat(m.prefillNanos(1, 100)).isEqualTo(120_000_000L);
    assertThat(m.prefillNanos(3, 100)).isEqualTo(240_000_000L);
    assertThat(m.prefillComputeNanos(1, 100)).isEqualTo(100_000_000L);
    assertThat(m.decodeNanos(5)).isEqualTo(30_000_000L);
    assertThat(new LatencyModel(SimulatorConfig.of("m").latencyCalculator("constant")
        .timeToFirstToken(Duration.ofMillis(50)), 1).prefillNanos(1, 1000)).isEqualTo(50_000_000L);
    LatencyModel j = new LatencyModel(c.interTokenLatencyStdDev(Duration.ofMillis(50)), 1);
    for (int i = 0; i < 1000; i++) {
      assertThat(j.decodeNanos(1)).isBetween(3_000_000L, 17_000_000L);
    }
  }

  @Test
  void flagsFollowThePeerAndPresetsYieldToExplicitFlags() {
    SimulatorCommand cmd = new SimulatorCommand();
    new CommandLine(cmd).parseArgs("--model", "m", "--preset", "llama-3.1-8b-h100", "--inter-token-latency", "20ms",
        "--lora-modules", "{\"name\":\"a\",\"path\":\"/p\"}", "b=/q", "--failure-types", "rate_limit,server_error",
        "--enable-kvcache=false", "--time-factor-under-load", "1.5");
    SimulatorConfig c = cmd.config;
    assertThat(c.problems()).isEmpty();
    assertThat(c.interTokenLatency()).isEqualTo(Duration.ofMillis(20));
    assertThat(c.prefillTimePerToken()).isEqualTo(Duration.ofNanos(250_000));
    assertThat(c.maxNumSeqs()).isEqualTo(256);
    assertThat(c.timeFactorUnderLoad()).isEqualTo(1.5);
    assertThat(c.effectiveCalculator()).isEqualTo("per-token");
    assertThat(c.loraModules()).hasSize(2);
    assertThat(c.failureTypes()).containsExactly("rate_limit", "server_error");
    assertThat(c.enableKvcache()).isFalse();
    assertThat(SimulatorConfig.of("m").timeToFirstToken(Duration.ofMillis(5)).effectiveCalculator())
        .isEqualTo("constant");
    assertThat(SimulatorConfig.of("m").mode("loud").failureTypes(List.of("boom")).problems()).hasSize(2);
  }
}
