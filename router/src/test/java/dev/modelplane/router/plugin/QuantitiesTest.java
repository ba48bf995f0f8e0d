package dev.modelplane.router.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class QuantitiesTest {
  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(delimiter = '|', textBlock = """
      100     | 100
      32Mi    | 33554432
      1Gi     | 1073741824
      500M    | 500000000
      1.5Mi   | 1572864
      2k      | 2000
      1e3     | 1000
      1.5     | 2
      0.1     | 1
      100m    | 1
      ' 4Ki ' | 4096
      """)
  void quantitiesAreWholeNumbersRoundedUp(String text, long value) {
    assertThat(Quantities.quantity(text)).isEqualTo(value);
  }

  @Test
  void missingQuantitiesAreZeroAndNumbersPassThrough() {
    assertThat(Quantities.quantity((String) null)).isZero();
    assertThat(Quantities.quantity(" ")).isZero();
    assertThat(Quantities.quantity(JsonNodeFactory.instance.nullNode())).isZero();
    assertThat(Quantities.quantity(JsonNodeFactory.instance.numberNode(7))).isEqualTo(7);
    assertThat(Quantities.quantity(JsonNodeFactory.instance.textNode("2Ki"))).isEqualTo(2048);
  }

  @ParameterizedTest
  @ValueSource(strings = {"abc", ".", "5x", "1.2.3", "Gi", "1Ki2", "5 Gi", "1e"})
  void garbageGetsAClearError(String text) {
    assertThatThrownBy(() -> Quantities.quantity(text)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("invalid quantity \"" + text + "\": use a Kubernetes quantity such as 512, 32Mi, 1Gi or 500M");
  }

  @Test
  void quantitiesBeyondALongAreRefused() {
    assertThatThrownBy(() -> Quantities.quantity("100E")).hasMessageContaining("out of range");
  }

  @Test
  void hugeDecimalExponentsAreRefusedWithoutExpandingThem() {
    // fabric8 alone computes 10^99999999 digit by digit, which takes minutes; a 10 s bound only catches a hang.
    org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
      assertThatThrownBy(() -> Quantities.quantity("1e99999999")).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("out of range");
      assertThat(Quantities.quantity("1e-99999999")).isEqualTo(1);
      assertThat(Quantities.quantity("-1e-99999999")).isZero();
      assertThat(Quantities.quantity("0e99999999")).isZero();
    });
    assertThat(Quantities.quantity("1e18")).isEqualTo(1_000_000_000_000_000_000L);
    assertThat(Quantities.quantity("12E-1")).isEqualTo(2);
    assertThatThrownBy(() -> Quantities.quantity("1e19")).hasMessageContaining("out of range");
  }

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
