package dev.modelplane.operator.modelsource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The short parameter size, character for character as OME writes it, including its rounding at the edges. */
class ParameterCountFormatTest {
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      "0, 0",
      "1, 1",
      "999, 999",
      "1000, 1K",
      "1001, 1.00K",
      "1050, 1.1K",
      "1250, 1.2K",
      "1500, 1.5K",
      "12500, 12.5K",
      "125000, 125K",
      "999999, 1000.00K",
      "1000000, 1M",
      "1500000, 1.5M",
      "559999999, 560.00M",
      "560000000, 560M",
      "560500000, 560.5M",
      "999999999, 1000.00M",
      "1000000000, 1B",
      "1005000000, 1.00B",
      "1050000000, 1.1B",
      "1250000000, 1.2B",
      "1350000000, 1.4B",
      "1540000000, 1.5B",
      "1543714304, 1.54B",
      "2005000000, 2.00B",
      "3215000000, 3.21B",
      "6738415616, 6.74B",
      "7000000000, 7B",
      "7600000000, 7.6B",
      "7615616512, 7.62B",
      "8030261248, 8.03B",
      "70553706496, 70.55B",
      "685000000000, 685B",
      "999999999999, 1000.00B",
      "1000000000000, 1T",
      "1025000000000, 1.02T",
      "1500000000000, 1.5T",
      "1000000000000000, 1000T",
      "9223372036854775807, 9223372.04T",
  })
  void formatsLikeOme(long count, String expected) {
    assertThat(ParameterCountFormat.format(count)).isEqualTo(expected);
    assertThat(new ParameterCount(count, ParameterCount.Source.SAFETENSORS_HEADERS).formatted()).isEqualTo(expected);
  }

  @Test
  void refusesANegativeCount() {
    assertThatThrownBy(() -> ParameterCountFormat.format(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a parameter count cannot be negative: -1");
    assertThatThrownBy(() -> new ParameterCount(-5, ParameterCount.Source.CONFIG_ESTIMATE))
        .hasMessage("a parameter count cannot be negative: -5");
  }
}
