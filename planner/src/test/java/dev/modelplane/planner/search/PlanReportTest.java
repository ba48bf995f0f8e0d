package dev.modelplane.planner.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.planner.fleet.RouterProfile;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanReportTest {
  static PlanOutcome outcome(Prices prices) {
    PlanSearch search = new PlanSearch(new CapacityEvaluator(), PlanSearchTest.SLOS, prices, 1000, s -> { });
    SearchSpace space = new SearchSpace(PlanSearchTest.LLAMA_8B, List.of("h100", "a100"), List.of(1, 2),
        List.of(RouterProfile.DEFAULT), 4);
    return search.search(space, PlanSearchTest.SEVEN_PER_SECOND);
  }

  @Test
  void theTableHasTheColumnsAndNotes() {
    String table = PlanReport.table(outcome(Prices.NONE));
    List<String> lines = table.lines().toList();
    assertThat(lines.get(0).split(" +")).containsExactly("RANK", "GPU", "TP", "REPLICAS", "GPUS", "PROFILE",
        "TTFT-P50", "TTFT-P90", "TTFT-P99", "ITL-P50", "ITL-P90", "E2E-P90", "REQ/S", "OUT-TOK/S", "SLO");
    assertThat(lines.get(1).split(" +")).containsExactly("1", "h100", "1", "3", "3", "default", "77.8ms", "156ms",
        "311ms", "10.0ms", "20.0ms", "3.16s", "7.00", "700", "met");
    assertThat(table).contains("Workload: fake at 7.0 req/s\nSLOs: ttft-p90=200ms\n")
        .contains("Extrapolations (figures beyond what was measured):\n  - Tensor parallelism 2 is not measured")
        .contains("\n  - The a100 is not measured")
        .contains("Cannot meet the SLOs:\n  - a100 TP=1 default: even 4 replicas (--max-replicas) miss ttft-p90=200ms")
        .contains("Simulated ");
  }

  @Test
  void pricedTablesShowCosts() {
    String table = PlanReport.table(outcome(Prices.parse(List.of("h100=4", "a100=1"))));
    String[] header = table.lines().findFirst().orElseThrow().split(" +");
    assertThat(header).endsWith("OUT-TOK/S", "$/H", "$/M-TOK", "SLO");
    assertThat(table.lines().skip(1).findFirst().orElseThrow().split(" +")).startsWith("1", "a100", "2", "3", "6")
        .contains("6.00", "2.38");
  }

  @Test
  void noPlanSaysSo() {
    PlanOutcome none = new PlanOutcome(List.of(), List.of(), "w", PlanSearchTest.SLOS, false, SimulationTotals.NONE);
    assertThat(PlanReport.table(none)).startsWith("No configuration meets the SLOs.\n");
  }

  @Test
  void theJsonHasTheDocumentedShape() throws Exception {
    JsonNode root = new ObjectMapper().readTree(PlanReport.json(outcome(Prices.parse(List.of("h100=4",
        "a100=1")))));
    assertThat(root.fieldNames()).toIterable().containsExactly("plans", "rejected", "workload", "slos",
        "simulation");
    JsonNode best = root.path("plans").get(0);
    assertThat(best.fieldNames()).toIterable().containsExactly("gpus", "gpu", "replicas", "tensorParallelSize",
        "routerProfile", "ttft", "itl", "e2e", "requestsPerSecond", "outputTokensPerSecond", "costPerHour",
        "costPerMillionTokens", "meetsSlos", "sloMargins", "extrapolations");
    assertThat(best.path("gpu").asText()).isEqualTo("a100");
    assertThat(best.path("gpus").asInt()).isEqualTo(6);
    assertThat(best.path("tensorParallelSize").asInt()).isEqualTo(2);
    assertThat(best.path("ttft").path("p90").asDouble()).isCloseTo(186.67, org.assertj.core.data.Offset.offset(0.01));
    assertThat(best.path("itl").path("p50").asDouble()).isCloseTo(10.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(best.path("costPerHour").asDouble()).isEqualTo(6.0);
    assertThat(best.path("meetsSlos").asBoolean()).isTrue();
    assertThat(best.path("sloMargins").path("ttft-p90=200ms").asDouble()).isGreaterThan(1);
    assertThat(best.path("extrapolations")).hasSize(2);
    JsonNode rejected = root.path("rejected").get(0);
    assertThat(rejected.path("gpu").asText()).isEqualTo("a100");
    assertThat(rejected.path("routerProfile").asText()).isEqualTo("default");
    assertThat(rejected.path("reason").asText()).startsWith("even 4 replicas");
    assertThat(root.path("slos").get(0).asText()).isEqualTo("ttft-p90=200ms");
    assertThat(root.path("simulation").path("runs").asInt()).isPositive();
    assertThat(root.path("simulation").path("speedUp").asDouble()).isEqualTo(120.0);
  }

  @Test
  void unpricedPlansHaveNullCosts() throws Exception {
    JsonNode best = new ObjectMapper().readTree(PlanReport.json(outcome(Prices.NONE))).path("plans").get(0);
    assertThat(best.path("costPerHour").isNull()).isTrue();
    assertThat(best.path("costPerMillionTokens").isNull()).isTrue();
  }
}
