package dev.modelplane.planner.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.planner.fleet.FleetResult;
import dev.modelplane.planner.fleet.LatencySummary;
import org.junit.jupiter.api.Test;

class SloTest {
  static FleetResult result(double ttftP90, double itlP50, double e2eP99, double outputTokensPerSecond) {
    return new FleetResult(new LatencySummary(ttftP90 / 2, ttftP90, ttftP90 * 2, ttftP90),
        new LatencySummary(itlP50, itlP50 * 2, itlP50 * 3, itlP50), new LatencySummary(e2eP99 / 3, e2eP99 / 2, e2eP99,
        e2eP99 / 2), 10, 10, outputTokensPerSecond, 1000, 100, 0, 0, 60, 1);
  }

  @Test
  void parsesEveryLatencyForm() {
    assertThat(Slo.parse("ttft-p90=500ms")).isEqualTo(new Slo(Slo.Metric.TTFT, 90, 0.5, "ttft-p90=500ms"));
    assertThat(Slo.parse("itl-p50=20ms")).isEqualTo(new Slo(Slo.Metric.ITL, 50, 0.02, "itl-p50=20ms"));
    assertThat(Slo.parse("e2e-p99=10s")).isEqualTo(new Slo(Slo.Metric.E2E, 99, 10.0, "e2e-p99=10s"));
    assertThat(Slo.parse("TTFT-P50=250us").target()).isEqualTo(0.00025);
    assertThat(Slo.parse(" e2e-p90 = 1m30s ").target()).isEqualTo(90.0);
  }

  @Test
  void parsesAThroughputFloor() {
    Slo slo = Slo.parse("tokens-per-second=5000");
    assertThat(slo.metric()).isEqualTo(Slo.Metric.OUTPUT_TOKENS_PER_SECOND);
    assertThat(slo.target()).isEqualTo(5000.0);
    assertThat(slo.metric().latency()).isFalse();
  }

  @Test
  void errorsNameTheBadPart() {
    assertThatThrownBy(() -> Slo.parse("ttft-p95=500ms"))
        .hasMessage("--slo ttft-p95=500ms: percentile must be p50, p90 or p99, got \"p95\"");
    assertThatThrownBy(() -> Slo.parse("ttft=500ms"))
        .hasMessage("--slo ttft=500ms: percentile must be p50, p90 or p99");
    assertThatThrownBy(() -> Slo.parse("tpot-p90=50ms"))
        .hasMessage("--slo tpot-p90=50ms: metric must be ttft, itl, e2e or tokens-per-second, got \"tpot\"");
    assertThatThrownBy(() -> Slo.parse("ttft-p90=500"))
        .hasMessage("--slo ttft-p90=500: \"500\" is not a duration (e.g. 500ms, 1.5s, 250us)");
    assertThatThrownBy(() -> Slo.parse("ttft-p90=0s"))
        .hasMessage("--slo ttft-p90=0s: the bound must be positive, got 0s");
    assertThatThrownBy(() -> Slo.parse("ttft-p90"))
        .hasMessage("--slo ttft-p90: expected METRIC-PERCENTILE=DURATION (e.g. ttft-p90=500ms) or "
            + "tokens-per-second=N");
    assertThatThrownBy(() -> Slo.parse("tokens-per-second=lots"))
        .hasMessage("--slo tokens-per-second=lots: \"lots\" is not a number of output tokens per second");
    assertThatThrownBy(() -> Slo.parse("tokens-per-second=-5"))
        .hasMessage("--slo tokens-per-second=-5: output tokens per second must be positive, got -5");
  }

  @Test
  void latencyIsACeilingAndThroughputAFloor() {
    FleetResult r = result(0.4, 0.025, 8, 4000);
    Slo ttft = Slo.parse("ttft-p90=500ms");
    assertThat(ttft.met(r)).isTrue();
    assertThat(ttft.margin(r)).isCloseTo(1.25, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(Slo.parse("itl-p50=20ms").met(r)).isFalse();
    assertThat(Slo.parse("itl-p50=20ms").margin(r)).isCloseTo(0.8, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(Slo.parse("e2e-p99=10s").met(r)).isTrue();
    assertThat(Slo.parse("tokens-per-second=5000").met(r)).isFalse();
    assertThat(Slo.parse("tokens-per-second=4000").met(r)).isTrue();
  }

  @Test
  void nothingMeasuredMeetsNothing() {
    FleetResult r = new FleetResult(LatencySummary.NONE, LatencySummary.NONE, LatencySummary.NONE, 1, 0, 0, 0, 0, 10,
        0, 60, 1);
    assertThat(Slo.parse("ttft-p90=10s").met(r)).isFalse();
    assertThat(Slo.parse("ttft-p90=10s").margin(r)).isZero();
  }
}
