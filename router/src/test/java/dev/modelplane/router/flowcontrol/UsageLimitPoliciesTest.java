package dev.modelplane.router.flowcontrol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.router.plugin.PluginParameters;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class UsageLimitPoliciesTest {
  private static PluginParameters params(String json) throws Exception {
    return PluginParameters.of(new ObjectMapper().readTree(json));
  }

  private static double[] ceilings(UsageLimitPolicy policy, double saturation, int... priorities) {
    double[] out = new double[priorities.length];
    policy.ceilings(saturation, priorities, out);
    return out;
  }

  @Test
  void staticGivesEveryBandItsThreshold() throws Exception {
    UsageLimitPolicy p = UsageLimitPolicies.Static.create("s", params("{\"threshold\":0.8}"), null);
    assertThat(ceilings(p, 0.5, 10, 0, -1)).containsExactly(0.8, 0.8, 0.8);
    assertThat(ceilings(UsageLimitPolicies.Static.create("s", PluginParameters.NONE, null), 0.5, 0))
        .containsExactly(1.0);
    assertThatThrownBy(() -> UsageLimitPolicies.Static.create("s", params("{\"threshold\":0}"), null))
        .hasMessage("threshold must be in (0.0, 1.0], got 0.0");
  }

  @Test
  void holdbackStepsDownByRankOrByValue() throws Exception {
    UsageLimitPolicy rank = UsageLimitPolicies.PriorityHoldback.create("h",
        params("{\"minCeiling\":0.4,\"maxCeiling\":0.9}"), null);
    assertThat(ceilings(rank, 0.5, 100, 0, -10)).containsExactly(new double[] {0.9, 0.65, 0.4}, within(1e-12));
    assertThat(ceilings(rank, 0.5, 7)).containsExactly(0.9);
    UsageLimitPolicy value = UsageLimitPolicies.PriorityHoldback.create("h",
        params("{\"minCeiling\":0.5,\"domain\":\"value\"}"), null);
    // 100 → 1.0; 0 → 0.5 + 0.5 × 10/110; −10 → 0.5
    assertThat(ceilings(value, 0.5, 100, 0, -10)).containsExactly(new double[] {1.0, 0.5 + 0.5 * 10 / 110.0, 0.5},
        within(1e-12));
  }

  @Test
  void holdbackRefusesWhatUpstreamRefuses() {
    assertThatThrownBy(() -> UsageLimitPolicies.PriorityHoldback.create("h", PluginParameters.NONE, null))
        .hasMessage("minCeiling is required (the ceiling of the lowest priority band)");
    assertThatThrownBy(() -> UsageLimitPolicies.PriorityHoldback.create("h", params("{\"minCeiling\":1.0}"), null))
        .hasMessage("minCeiling must be in [0.0, 1.0), got 1.0");
    assertThatThrownBy(() -> UsageLimitPolicies.PriorityHoldback.create("h",
        params("{\"minCeiling\":0.8,\"maxCeiling\":0.6}"), null))
        .hasMessage("minCeiling (0.8) must not be greater than maxCeiling (0.6)");
    assertThatThrownBy(() -> UsageLimitPolicies.PriorityHoldback.create("h",
        params("{\"minCeiling\":0.5,\"shape\":\"sigmoid\"}"), null))
        .hasMessage("shape 'sigmoid' is not supported (supported: linear)");
    assertThatThrownBy(() -> UsageLimitPolicies.PriorityHoldback.create("h",
        params("{\"minCeiling\":0.5,\"domain\":\"level\"}"), null))
        .hasMessage("domain must be 'rank' or 'value', got 'level'");
  }

  @Test
  void softReflectiveOpensLowerBandsLessOftenAsSaturationRises() throws Exception {
    UsageLimitPolicy p = UsageLimitPolicies.SoftReflective.create("r", PluginParameters.NONE, null);
    // Below every reflective ceiling (1, 0.85, 0.7 at saturation 0.3): all open.
    assertThat(ceilings(p, 0.3, 2, 1, 0)).containsExactly(1.0, 1.0, 1.0);
    // At 0.8 band 1's reflective ceiling is 0.6: it opens on one call in round(0.8 / 0.2) = 4.
    List<Double> band1 = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      band1.add(ceilings(p, 0.8, 2, 1, 0)[1]);
    }
    assertThat(band1.stream().filter(c -> c == 1.0).count()).isEqualTo(2);
    assertThat(ceilings(p, 1.0, 2, 1, 0)).containsExactly(1.0, 0.0, 0.0);
    assertThatThrownBy(() -> UsageLimitPolicies.SoftReflective.create("r", params("{\"x\":1}"), null))
        .hasMessage("soft-reflective-ceiling-policy takes no parameters, got {\"x\":1}");
  }
}
