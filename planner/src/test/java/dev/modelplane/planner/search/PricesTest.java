package dev.modelplane.planner.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PricesTest {
  @Test
  void parsesPricesByGpu() {
    Prices p = Prices.parse(List.of("h100=2.5", "A100 = 1.1"));
    assertThat(p.of("H100")).isEqualTo(2.5);
    assertThat(p.of("a100")).isEqualTo(1.1);
    assertThat(p.of("l4")).isNull();
    assertThat(p.priced()).isTrue();
    assertThat(Prices.parse(List.of()).priced()).isFalse();
  }

  @Test
  void errorsNameTheEntry() {
    assertThatThrownBy(() -> Prices.parse(List.of("h100")))
        .hasMessage("--price h100: expected GPU=USD_PER_HOUR (e.g. h100=2.5)");
    assertThatThrownBy(() -> Prices.parse(List.of("b200=9")))
        .hasMessageStartingWith("--price b200=9: unknown GPU \"b200\"; known: h100");
    assertThatThrownBy(() -> Prices.parse(List.of("h100=cheap")))
        .hasMessage("--price h100=cheap: \"cheap\" is not a number of dollars");
    assertThatThrownBy(() -> Prices.parse(List.of("h100=0"))).hasMessage("--price h100=0: the price must be positive");
    assertThatThrownBy(() -> Prices.parse(List.of("h100=1", "h100=2")))
        .hasMessage("--price h100=2: h100 is priced twice");
  }

  @Test
  void aPricedPlanNeedsEveryGpuPriced() {
    Prices p = Prices.parse(List.of("h100=2.5"));
    p.requireAll(List.of("h100"));
    assertThatThrownBy(() -> p.requireAll(List.of("h100", "a100")))
        .hasMessage("--price: no price for a100; price every --gpu (e.g. --price a100=2.5) or none");
    Prices.NONE.requireAll(List.of("a100"));
  }
}
