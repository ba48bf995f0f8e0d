package dev.modelplane.planner.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SyntheticWorkloadTest {
  private static final LengthDistribution PROMPT = new LengthDistribution.Normal(480, 240);
  private static final LengthDistribution OUTPUT = new LengthDistribution.Normal(300, 150);

  static List<PlannedRequest> all(Workload w) {
    List<PlannedRequest> list = new ArrayList<>();
    w.requests().forEachRemaining(list::add);
    return list;
  }

  private static SyntheticWorkload workload(ArrivalProcess arrival, PrefixGroups prefix, RequestMix mix, long seed) {
    return new SyntheticWorkload(arrival, null, 20_000L, PROMPT, OUTPUT, prefix, mix, seed);
  }

  @Test
  void sameSeedGivesTheSameRequestsOnEveryCallAndAnotherSeedOthers() {
    PrefixGroups prefix = new PrefixGroups(8, new LengthDistribution.Uniform(100, 2000), 0.6, 1.1);
    RequestMix mix = new RequestMix(Map.of(0, 0.9, -1, 0.1), 0.1, List.of("sql", "chat"),
        RequestMix.numbered("tenant", 4));
    SyntheticWorkload w = new SyntheticWorkload(new ArrivalProcess.Gamma(50, 2), 60.0, null, PROMPT, OUTPUT, prefix,
        mix, 7);

    assertThat(all(w)).isEqualTo(all(w)).hasSizeGreaterThan(2000);
    assertThat(all(new SyntheticWorkload(new ArrivalProcess.Gamma(50, 2), 60.0, null, PROMPT, OUTPUT, prefix, mix,
        7))).isEqualTo(all(w));
    assertThat(all(new SyntheticWorkload(new ArrivalProcess.Gamma(50, 2), 60.0, null, PROMPT, OUTPUT, prefix, mix,
        8))).isNotEqualTo(all(w));
  }

  @Test
  void poissonArrivalsHaveTheMeanRateAndExponentialGaps() {
    List<PlannedRequest> list = all(workload(new ArrivalProcess.Poisson(50), null, RequestMix.DEFAULT, 1));
    assertThat(list).hasSize(20_000);
    double seconds = list.get(list.size() - 1).arrivalNanos() / 1e9;
    assertThat(list.size() / seconds).isCloseTo(50, within(1.5));
    assertThat(gapCv(list)).isCloseTo(1, within(0.05));
    assertThat(list).isSortedAccordingTo((a, b) -> Long.compare(a.arrivalNanos(), b.arrivalNanos()));
    assertThat(list.get(0).id()).isZero();
    assertThat(list.get(19_999).id()).isEqualTo(19_999);
  }

  @Test
  void gammaArrivalsAreAsBurstyAsAsked() {
    List<PlannedRequest> bursty = all(workload(new ArrivalProcess.Gamma(50, 2), null, RequestMix.DEFAULT, 1));
    assertThat(bursty.size() / (bursty.get(bursty.size() - 1).arrivalNanos() / 1e9)).isCloseTo(50, within(3.0));
    assertThat(gapCv(bursty)).isCloseTo(2, within(0.15));
    List<PlannedRequest> regular = all(workload(new ArrivalProcess.Gamma(50, 0.5), null, RequestMix.DEFAULT, 1));
    assertThat(gapCv(regular)).isCloseTo(0.5, within(0.05));
  }

  @Test
  void constantArrivalsAreEvenlySpaced() {
    List<PlannedRequest> list = all(new SyntheticWorkload(new ArrivalProcess.Constant(4), 10.0, null,
        new LengthDistribution.Fixed(10), new LengthDistribution.Fixed(5), null, RequestMix.DEFAULT, 1));
    assertThat(list).extracting(PlannedRequest::arrivalNanos)
        .containsExactly(250_000_000L, 500_000_000L, 750_000_000L, 1_000_000_000L, 1_250_000_000L, 1_500_000_000L,
            1_750_000_000L, 2_000_000_000L, 2_250_000_000L, 2_500_000_000L, 2_750_000_000L, 3_000_000_000L,
            3_250_000_000L, 3_500_000_000L, 3_750_000_000L, 4_000_000_000L, 4_250_000_000L, 4_500_000_000L,
            4_750_000_000L, 5_000_000_000L, 5_250_000_000L, 5_500_000_000L, 5_750_000_000L, 6_000_000_000L,
            6_250_000_000L, 6_500_000_000L, 6_750_000_000L, 7_000_000_000L, 7_250_000_000L, 7_500_000_000L,
            7_750_000_000L, 8_000_000_000L, 8_250_000_000L, 8_500_000_000L, 8_750_000_000L, 9_000_000_000L,
            9_250_000_000L, 9_500_000_000L, 9_750_000_000L);
  }

  @Test
  void lengthMeansMatchTheirDistributions() {
    Map<LengthDistribution, Double> expected = Map.of(new LengthDistribution.Uniform(100, 300), 200.0,
        new LengthDistribution.LogNormal(480, 400), 480.0, new LengthDistribution.Normal(1000, 100), 1000.0,
        new LengthDistribution.Empirical(List.of(10, 20, 90)), 40.0);
    expected.forEach((d, mean) -> {
      List<PlannedRequest> list = all(new SyntheticWorkload(new ArrivalProcess.Poisson(10), null, 50_000L, d, d,
          null, RequestMix.DEFAULT, 3));
      assertThat(list.stream().mapToInt(PlannedRequest::promptTokens).average().orElseThrow())
          .as("%s", d).isCloseTo(mean, within(mean * 0.02));
      assertThat(list.stream().mapToInt(PlannedRequest::outputTokens).min().orElseThrow()).isPositive();
    });
    List<PlannedRequest> normal = all(workload(new ArrivalProcess.Poisson(50), null, RequestMix.DEFAULT, 1));
    assertThat(normal.stream().mapToInt(PlannedRequest::promptTokens).average().orElseThrow())
        .isCloseTo(480, within(12.0));
    assertThat(normal.stream().mapToInt(PlannedRequest::outputTokens).average().orElseThrow())
        .isCloseTo(300, within(8.0));
    assertThat(normal.stream().mapToInt(PlannedRequest::promptTokens).min().orElseThrow()).isGreaterThanOrEqualTo(1);
  }

  @Test
  void zipfMakesTheFirstGroupsPopularWhereUniformDoesNot() {
    int[] zipf = groupCounts(new PrefixGroups(10, new LengthDistribution.Fixed(100), 1, 1.0));
    int[] uniform = groupCounts(new PrefixGroups(10, new LengthDistribution.Fixed(100), 1, 0));
    double harmonic = 0;
    for (int k = 1; k <= 10; k++) {
      harmonic += 1.0 / k;
    }
    double zipfTotal = java.util.Arrays.stream(zipf).sum();
    double uniformTotal = java.util.Arrays.stream(uniform).sum();
    assertThat(zipfTotal).isGreaterThan(19_000);
    assertThat(zipf[0] / zipfTotal).isCloseTo(1 / harmonic, within(0.015));
    assertThat(zipf[9] / zipfTotal).isCloseTo(0.1 / harmonic, within(0.01));
    for (int count : uniform) {
      assertThat(count / uniformTotal).isCloseTo(0.1, within(0.01));
    }
  }

  private static int[] groupCounts(PrefixGroups prefix) {
    int[] counts = new int[prefix.groups()];
    all(workload(new ArrivalProcess.Poisson(50), prefix, RequestMix.DEFAULT, 5)).stream()
        .filter(r -> r.prefixGroup() >= 0).forEach(r -> counts[r.prefixGroup()]++);
    return counts;
  }

  @Test
  void theShareOfRequestsWithAPrefixIsAsAskedAndAPromptIsNeverAllPrefix() {
    PrefixGroups prefix = new PrefixGroups(4, new LengthDistribution.Fixed(1000), 0.6, 0);
    List<PlannedRequest> list = all(workload(new ArrivalProcess.Poisson(50), prefix, RequestMix.DEFAULT, 2));
    assertThat(list.stream().filter(r -> r.prefixGroup() >= 0).count() / 20_000.0).isCloseTo(0.6, within(0.015));
    assertThat(list).allSatisfy(r -> {
      assertThat(r.prefixTokens()).isLessThanOrEqualTo(r.promptTokens() - 1);
      assertThat(r.prefixGroup() < 0).isEqualTo(r.prefixTokens() == 0);
    });
    assertThat(list).filteredOn(r -> r.prefixGroup() >= 0 && r.promptTokens() > 1000)
        .allSatisfy(r -> assertThat(r.prefixTokens()).isEqualTo(1000));
    assertThat(list).anySatisfy(r -> assertThat(r.promptTokens()).isLessThan(1000).isGreaterThan(1));
  }

  @Test
  void aGroupKeepsOnePrefixLengthWhenLengthsAreDrawn() {
    PrefixGroups prefix = new PrefixGroups(3, new LengthDistribution.Uniform(10, 90), 1, 0);
    Map<Integer, Integer> lengths = new HashMap<>();
    new SyntheticWorkload(new ArrivalProcess.Poisson(50), null, 2000L, new LengthDistribution.Fixed(500),
        new LengthDistribution.Fixed(5), prefix, RequestMix.DEFAULT, 4).requests().forEachRemaining(r ->
        assertThat(lengths.computeIfAbsent(r.prefixGroup(), g -> r.prefixTokens())).isEqualTo(r.prefixTokens()));
    assertThat(lengths).hasSize(3);
  }

  @Test
  void prioritiesAdaptersAndTenantsComeInTheirShares() {
    RequestMix mix = new RequestMix(Map.of(0, 0.9, -1, 0.1), 0.1, List.of("sql", "chat"),
        RequestMix.numbered("tenant", 4));
    List<PlannedRequest> list = all(workload(new ArrivalProcess.Poisson(50), null, mix, 9));
    assertThat(list.stream().filter(r -> r.priority() == -1).count() / 20_000.0).isCloseTo(0.1, within(0.01));
    assertThat(list).allSatisfy(r -> assertThat(r.priority()).isIn(0, -1));
    assertThat(list.stream().filter(r -> r.adapter() != null).count() / 20_000.0).isCloseTo(0.1, within(0.01));
    assertThat(list.stream().filter(r -> "sql".equals(r.adapter())).count() / 20_000.0).isCloseTo(0.05,
        within(0.007));
    assertThat(list.stream().filter(r -> "tenant-3".equals(r.fairnessId())).count() / 20_000.0).isCloseTo(0.25,
        within(0.015));
    assertThat(list).allSatisfy(r -> assertThat(r.fairnessId()).isIn(RequestMix.numbered("tenant", 4)));
    assertThat(workload(new ArrivalProcess.Poisson(50), null, mix, 9).adapters()).containsExactlyInAnyOrder("sql",
        "chat");
  }

  @Test
  void byDefaultEveryRequestIsPriorityZeroOnTheBaseModelInOneFlow() {
    Workload w = Workloads.poisson(10, 512, 128, Duration.ofSeconds(30), 1);
    assertThat(all(w)).allSatisfy(r -> {
      assertThat(r.priority()).isZero();
      assertThat(r.adapter()).isNull();
      assertThat(r.fairnessId()).isEqualTo("default-flow");
      assertThat(r.prefixGroup()).isEqualTo(-1);
      assertThat(r.promptTokens()).isEqualTo(512);
      assertThat(r.outputTokens()).isEqualTo(128);
      assertThat(r.arrivalNanos()).isLessThan(30_000_000_000L);
    });
    assertThat(w.adapters()).isEmpty();
    assertThat(w.rate()).isEqualTo(10);
    assertThat(w.describe()).isEqualTo("Poisson 10 req/s for 30 s, prompt 512, output 128");
  }

  @Test
  void atRateKeepsTheRequestsAndScalesTheirArrivals() {
    RequestMix mix = new RequestMix(Map.of(0, 0.5, 2, 0.5), 0.5, List.of("a"), List.of("x", "y"));
    SyntheticWorkload w = new SyntheticWorkload(new ArrivalProcess.Gamma(10, 3), null, 500L, PROMPT, OUTPUT,
        new PrefixGroups(3, new LengthDistribution.Fixed(50), 0.5, 1), mix, 11);
    Workload faster = w.atRate(40);
    assertThat(faster.rate()).isEqualTo(40);
    assertThat(w.rate()).isEqualTo(10);
    List<PlannedRequest> slow = all(w);
    List<PlannedRequest> fast = all(faster);
    assertThat(fast).hasSize(500);
    for (int i = 0; i < slow.size(); i++) {
      PlannedRequest s = slow.get(i);
      PlannedRequest f = fast.get(i);
      assertThat(f.arrivalNanos()).isCloseTo(s.arrivalNanos() / 4, within(2L));
      assertThat(new PlannedRequest(f.id(), s.arrivalNanos(), f.promptTokens(), f.outputTokens(), f.prefixGroup(),
          f.prefixTokens(), f.priority(), f.adapter(), f.fairnessId())).isEqualTo(s);
    }
    assertThat(faster.describe()).startsWith("gamma 40 req/s (cv 3) for 500 requests");
  }

  @Test
  void aDurationStopsArrivalsAndAnHourIsGeneratedLazily() {
    Workload hour = Workloads.poisson(50, 100, 10, Duration.ofHours(1), 3);
    long count = 0;
    long last = 0;
    for (Iterator<PlannedRequest> it = hour.requests(); it.hasNext(); count++) {
      last = it.next().arrivalNanos();
    }
    assertThat(count).isCloseTo(180_000, within(1500L));
    assertThat(last).isLessThan(3_600_000_000_000L);
  }

  @Test
  void describeSaysEverything() {
    SyntheticWorkload w = new SyntheticWorkload(new ArrivalProcess.Poisson(50), 600.0, null, PROMPT, OUTPUT,
        new PrefixGroups(8, new LengthDistribution.Fixed(1000), 0.6, 0),
        new RequestMix(Map.of(0, 0.9, -1, 0.1), 0.1, RequestMix.numbered("adapter", 2),
            RequestMix.numbered("tenant", 4)), 1);
    assertThat(w.describe()).isEqualTo("Poisson 50 req/s for 600 s, prompt N(480,240), output N(300,150), "
        + "8 prefix groups of 1000 tokens on 60% of requests, 10% LoRA (2 adapters), priorities 0: 90%, -1: 10%, "
        + "4 tenants");
  }

  @Test
  void badParametersAreRefused() {
    assertThatThrownBy(() -> Workloads.poisson(0, 1, 1, Duration.ofSeconds(1), 1))
        .hasMessage("the rate must be > 0 requests/s, got 0.0");
    assertThatThrownBy(() -> Workloads.poisson(1, 0, 1, Duration.ofSeconds(1), 1))
        .hasMessage("a fixed length must be at least 1 token, got 0");
    assertThatThrownBy(() -> new SyntheticWorkload(new ArrivalProcess.Poisson(1), null, null, PROMPT, OUTPUT, null,
        RequestMix.DEFAULT, 1)).hasMessage("a workload needs a duration or a number of requests");
    assertThatThrownBy(() -> new ArrivalProcess.Gamma(1, 0)).hasMessage("the burstiness (cv) must be > 0, got 0.0");
    assertThatThrownBy(() -> new PrefixGroups(2, PROMPT, 1.5, 0))
        .hasMessage("the prefix share must be between 0 and 1, got 1.5");
    assertThatThrownBy(() -> new RequestMix(Map.of(), 0.2, List.of(), List.of("t")))
        .hasMessage("a LoRA share above 0 needs at least one adapter");
    assertThatThrownBy(() -> new RequestMix(Map.of(1, 0.0), 0, List.of(), List.of("t")))
        .hasMessage("priority 1 needs a weight > 0, got 0.0");
  }

  private static double gapCv(List<PlannedRequest> list) {
    double[] gaps = new double[list.size() - 1];
    for (int i = 1; i < list.size(); i++) {
      gaps[i - 1] = list.get(i).arrivalNanos() - list.get(i - 1).arrivalNanos();
    }
    double mean = java.util.Arrays.stream(gaps).average().orElseThrow();
    double variance = java.util.Arrays.stream(gaps).map(g -> (g - mean) * (g - mean)).average().orElseThrow();
    return Math.sqrt(variance) / mean;
  }
}
