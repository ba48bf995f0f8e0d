package dev.modelplane.router.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class QuantitiesTest {
  @Test
  void durationsAreGoDurationsNamingTheFieldOnError() {
    assertThat(Quantities.duration("1m30s", "f")).isEqualTo(Duration.ofSeconds(90));
    assertThat(Quantities.duration("0", "f")).isZero();
    assertThat(Quantities.duration(null, "f")).isZero();
    assertThatThrownBy(() -> Quantities.duration("30", "flowControl.defaultRequestTTL"))
        .hasMessageStartingWith("flowControl.defaultRequestTTL: invalid duration \"30\": missing unit");
    assertThatThrownBy(() -> Quantities.duration("-1s", "flowControl.defaultRequestTTL"))
        .hasMessage("flowControl.defaultRequestTTL: duration \"-1s\" must not be negative");
  }
}
