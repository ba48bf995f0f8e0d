package dev.modelplane.planner.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Runs of whole fleets in virtual time: deterministic per seed, faster with more replicas, every router profile
 * serving (the precise one from the servers' own KV-cache events), adapters, and refusals counted as failures.
 */
class FleetSimulationTest {
  static final List<String> H100_8B = List.of("--model", "m", "--model-config", "llama-3.1-8b", "--gpu", "h100",
      "--tensor-parallel-size", "1", "--enable-kvcache");

  private static FleetResult run(int replicas, RouterProfile profile, PoissonWorkload workload, long seed) {
    return FleetSimulation.run(new FleetConfig(H100_8B, replicas, profile), workload, seed);
  }

  @Test
  void theSameSeedGivesTheSameRunAndAnotherSeedAnother() {
    PoissonWorkload w = PoissonWorkload.of(20, 400, 800, 64).withPrefixes(4, 400);
    FleetResult a = run(2, RouterProfile.DEFAULT, w, 1);
    FleetResult b = run(2, RouterProfile.DEFAULT, w, 1);
    FleetResult c = run(2, RouterProfile.DEFAULT, new PoissonWorkload(20, 400, 800, 64, 4, 400, Set.of(), 8), 1);
    assertThat(a.ttft()).isEqualTo(b.ttft());
    assertThat(a.e2e()).isEqualTo(b.e2e());
    assertThat(a.completed()).isEqualTo(400);
    assertThat(c.ttft()).isNotEqualTo(a.ttft());
  }

  @Test
  void moreReplicasServeALoadOneCannotKeepUpWith() {
    // 60k prompt tokens/s: more than one H100 prefills for an 8B model, comfortably within four.
    PoissonWorkload w = PoissonWorkload.of(24, 1200, 2500, 32);
    FleetResult one = run(1, RouterProfile.DEFAULT, w, 3);
    FleetResult four = run(4, RouterProfile.DEFAULT, w, 3);
    assertThat(four.ttft().p90()).isLessThan(0.2);
    assertThat(one.ttft().p90()).isGreaterThan(10 * four.ttft().p90());
    assertThat(four.requestsPerSecond()).isCloseTo(24, org.assertj.core.data.Percentage.withPercentage(10));
    assertThat(four.itl().p50()).isGreaterThan(0.005).isLessThan(0.05);
    assertThat(four.speedUp()).isGreaterThan(1);
  }

  @Test
  void everyProfileServesAndPrefixAwareOnesFindTheSharedPrefixes() {
    PoissonWorkload w = PoissonWorkload.of(30, 900, 1200, 32).withPrefixes(6, 1000);
    for (RouterProfile p : RouterProfile.values()) {
      FleetResult r = run(3, p, w, 5);
      assertThat(r.completed()).as(p.label()).isEqualTo(900);
      assertThat(r.failed()).as(p.label()).isZero();
      // Most of each prompt is a group's prefix: routing that follows prefixes hits the servers' caches.
      assertThat(r.prefixHitRate()).as(p.label()).isGreaterThan(0.6);
    }
  }

  @Test
  void requestsForAdaptersAreServedByTheirAdapters() {
    PoissonWorkload w = PoissonWorkload.of(10, 200, 300, 16).withAdapters(Set.of("sql", "chat"));
    FleetResult r = run(2, RouterProfile.DEFAULT, w, 2);
    assertThat(r.completed()).isEqualTo(200);
    assertThat(r.failed()).isZero();
  }

  @Test
  void requestsTheServersRefuseAreFailures() {
    List<String> shortContext = new java.util.ArrayList<>(H100_8B);
    shortContext.addAll(List.of("--max-model-len", "256"));
    FleetResult r = FleetSimulation.run(new FleetConfig(shortContext, 1, RouterProfile.DEFAULT),
        PoissonWorkload.of(10, 20, 400, 16), 1);
    assertThat(r.completed()).isZero();
    assertThat(r.failed()).isEqualTo(20);
    assertThat(r.ttft()).isEqualTo(LatencySummary.NONE);
  }

  @Test
  void badServerFlagsAreNamed() {
    assertThatThrownBy(() -> FleetSimulation.run(new FleetConfig(List.of("--model", "m", "--gpu", "h100"), 1,
        RouterProfile.DEFAULT), PoissonWorkload.of(1, 1, 10, 1), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("simulator flags: --gpu and --tensor-parallel-size need --preset or --model-config");
  }
}
