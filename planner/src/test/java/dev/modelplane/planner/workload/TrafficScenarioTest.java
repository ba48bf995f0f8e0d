package dev.modelplane.planner.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TrafficScenarioTest {
  @Test
  void deterministic() {
    TrafficScenario s = TrafficScenario.parse("D(100,50)");
    assertThat(s.prompt()).isEqualTo(new LengthDistribution.Fixed(100));
    assertThat(s.output()).isEqualTo(new LengthDistribution.Fixed(50));
    assertThat(s.sharedPrefixTokens()).isZero();
    assertThat(s).hasToString("D(100,50)");
  }

  @Test
  void normal() {
    TrafficScenario s = TrafficScenario.parse("N(480,240)/(300,150)");
    assertThat(s.prompt()).isEqualTo(new LengthDistribution.Normal(480, 240));
    assertThat(s.output()).isEqualTo(new LengthDistribution.Normal(300, 150));
  }

  @Test
  void uniformWithAndWithoutMinimums() {
    TrafficScenario both = TrafficScenario.parse("U(100,200)/(200,300)");
    assertThat(both.prompt()).isEqualTo(new LengthDistribution.Uniform(100, 200));
    assertThat(both.output()).isEqualTo(new LengthDistribution.Uniform(200, 300));
    TrafficScenario maxOnly = TrafficScenario.parse("U(1000,100)");
    assertThat(maxOnly.prompt()).isEqualTo(new LengthDistribution.Uniform(1, 1000));
    assertThat(maxOnly.output()).isEqualTo(new LengthDistribution.Uniform(1, 100));
  }

  @Test
  void prefixRepetition() {
    TrafficScenario s = TrafficScenario.parse("P(2000,500)/200");
    assertThat(s.prompt()).isEqualTo(new LengthDistribution.Fixed(2500));
    assertThat(s.output()).isEqualTo(new LengthDistribution.Fixed(200));
    assertThat(s.sharedPrefixTokens()).isEqualTo(2000);
  }

  @Test
  void malformedScenariosNameTheFormsAllowed() {
    for (String bad : List.of("D(100)", "D(100,50)/(1,2)", "N(480,240)", "X(1,2)", "N(480, 240)/(300,150)",
        "U(1,2)/(3)", "")) {
      assertThatThrownBy(() -> TrafficScenario.parse(bad)).as(bad).hasMessage("traffic scenario \"" + bad
          + "\" is not one of D(in,out), N(mean_in,stddev_in)/(mean_out,stddev_out), "
          + "U(min_in,max_in)/(min_out,max_out), U(max_in,max_out) or P(prefix,suffix)/out");
    }
  }

  @Test
  void impossibleNumbersSayWhy() {
    assertThatThrownBy(() -> TrafficScenario.parse("U(300,200)/(1,2)"))
        .hasMessage("traffic scenario \"U(300,200)/(1,2)\": a uniform distribution's max (200) is below its min (300)");
    assertThatThrownBy(() -> TrafficScenario.parse("D(0,5)"))
        .hasMessage("traffic scenario \"D(0,5)\": a fixed length must be at least 1 token, got 0");
    assertThatThrownBy(() -> TrafficScenario.parse("P(100,0)/5"))
        .hasMessage("traffic scenario \"P(100,0)/5\": the suffix must be at least 1 token (a prompt is never all "
            + "prefix)");
    assertThatThrownBy(() -> TrafficScenario.parse("D(99999999999,5)"))
        .hasMessage("traffic scenario \"D(99999999999,5)\": 99999999999 tokens is too many");
  }

  @Test
  void compactLengthForms() {
    assertThat(LengthDistribution.parse("512")).isEqualTo(new LengthDistribution.Fixed(512));
    assertThat(LengthDistribution.parse("D(512)")).isEqualTo(new LengthDistribution.Fixed(512));
    assertThat(LengthDistribution.parse("U(1, 1024)")).isEqualTo(new LengthDistribution.Uniform(1, 1024));
    assertThat(LengthDistribution.parse("N(480,240)")).isEqualTo(new LengthDistribution.Normal(480, 240));
    assertThat(LengthDistribution.parse("LN(480.5,240)")).isEqualTo(new LengthDistribution.LogNormal(480.5, 240));
    assertThat(LengthDistribution.parse("LN(480.5,240)")).hasToString("LN(480.5,240)");
    assertThat(new LengthDistribution.Empirical(List.of(10, 20, 90))).hasToString("empirical(3 lengths, mean 40)");
    assertThatThrownBy(() -> new LengthDistribution.Empirical(List.of()))
        .hasMessage("an empirical distribution needs at least one length");
    assertThatThrownBy(() -> LengthDistribution.parse("N(480)")).hasMessage("\"N(480)\" is not a length "
        + "distribution; expected a number, U(min,max), N(mean,stddev) or LN(mean,stddev)");
    assertThatThrownBy(() -> LengthDistribution.parse("U(1.5,3)"))
        .hasMessage("\"U(1.5,3)\": 1.5 is not a whole number of tokens");
    assertThatThrownBy(() -> LengthDistribution.parse("N(0,3)"))
        .hasMessage("a normal distribution needs mean >= 1 and stddev >= 0, got mean 0.0 and stddev 3.0");
  }
}
