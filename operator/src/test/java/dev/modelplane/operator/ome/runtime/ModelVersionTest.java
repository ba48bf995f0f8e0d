package dev.modelplane.operator.ome.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ModelVersionTest {
  @ParameterizedTest(name = "runtime {0} {1} model {2} -> {3}")
  @CsvSource(nullValues = "-", value = {
      // Equal compares numbers: missing parts are 0.
      "1, Equal, 1.0.0, true",
      "1.0.0, -, 1, true",
      "4.43.0, Equal, 4.43.1, false",
      "v1.2, Equal, 1.2, true",
      // Ordered operators ask runtime > (>=) model, with equal precision and prefix.
      "6.0.0, GreaterThan, 4.43.0, true",
      "4.43.0, GreaterThan, 4.43.0, false",
      "4.43.0, GreaterThanOrEqual, 4.43.0, true",
      "4.0.0, GreaterThan, 4.43.0, false",
      "6.0, GreaterThan, 4.43.0, false",
      "v6.0.0, GreaterThan, 4.43.0, false",
      "v6.0.0, GreaterThan, v4.43.0, true",
      // Pre-release, build and dev parts allow only equality.
      "4.43.0.dev0, GreaterThan, 4.43.0.dev0, true",
      "6.0.0, GreaterThan, 4.43.0.dev0, false",
      "1.0.0-rc1, GreaterThanOrEqual, 1.0.0-rc1, true",
      "1.0.0+b1, Equal, 1.0.0+b2, false",
      // Unreadable versions and operators never match.
      "x.1, Equal, x.1, false",
      "1.0, Around, 1.0, false",
      "1.0.0-, Equal, 1.0.0-, false"})
  void versionsAreComparedAsOmeComparesThem(String runtime, String operator, String model, boolean matches) {
    assertThat(ModelVersion.matches(runtime, operator, model)).isEqualTo(matches);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"7B, 7000000000", "7.6B, 7600000000", "560M, 560000000", "1.5T, 1500000000000", "123, 123"})
  void sizesReadTheirSuffix(String text, double value) {
    assertThat(ModelSize.parse(text)).contains(value);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"7 billion", "B", "-1B", "''"})
  void notASize(String text) {
    assertThat(ModelSize.parse(text)).isEmpty();
  }
}
