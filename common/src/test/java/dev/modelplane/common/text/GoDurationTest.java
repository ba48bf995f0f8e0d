package dev.modelplane.common.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** Cases from Go's {@code time} package tests, plus those where the router's and simulator's parsers disagreed. */
class GoDurationTest {
  @ParameterizedTest(name = "{0} = {1} ns")
  @CsvSource(delimiter = '|', textBlock = """
      0                            | 0
      +0                           | 0
      -0                           | 0
      5s                           | 5000000000
      30s                          | 30000000000
      1478s                        | 1478000000000
      -5s                          | -5000000000
      +5s                          | 5000000000
      -0s                          | 0
      5.0s                         | 5000000000
      5.6s                         | 5600000000
      5.s                          | 5000000000
      .5s                          | 500000000
      1.004s                       | 1004000000
      100.00100s                   | 100001000000
      10ns                         | 10
      11us                         | 11000
      12µs                         | 12000
      12μs                         | 12000
      13ms                         | 13000000
      15m                          | 900000000000
      16h                          | 57600000000000
      3h30m                        | 12600000000000
      10.5s4m                      | 250500000000
      -2m3.4s                      | -123400000000
      1h2m3s4ms5us6ns              | 3723004005006
      39h9m14.425s                 | 140954425000000
      0.3333333333333333333h       | 1200000000000
      0.830103483285477580700h     | 2988372539827
      1.5ns                        | 1
      9223372036854775807ns        | 9223372036854775807
      9223372036854775.807us       | 9223372036854775807
      9223372036s854ms775us807ns   | 9223372036854775807
      -9223372036854775808ns       | -9223372036854775808
      -9223372036854775.808us      | -9223372036854775808
      -9223372036s854ms775us808ns  | -9223372036854775808
      0.100000000000000000000h     | 360000000000
      ' 250ms '                    | 250000000
      """)
  void parsesWhatGoParses(String text, long nanos) {
    assertThat(GoDuration.parse(text)).isEqualTo(Duration.ofNanos(nanos));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "3", "-", "s", ".", "-.", ".s", "+.s", "1d", "1.1.1s", "1 s", "10 parsecs",
      "1s-1s", "9223372036854775808ns", "-9223372036854775809ns", "3000000h",
      "-9223372036854775808ns9223372036854775808ns"})
  void rejectsWhatGoRejects(String text) {
    assertThatThrownBy(() -> GoDuration.parse(text)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"" + text + "\"").hasMessageContaining("such as 300ms");
  }

  @Test
  void errorsSayWhatIsWrong() {
    assertThatThrownBy(() -> GoDuration.parse("40")).hasMessage(
        "invalid duration \"40\": missing unit; use a Go duration such as 300ms, 1.5s, 2m30s or 1h");
    assertThatThrownBy(() -> GoDuration.parse("2d")).hasMessageContaining("unknown unit \"d\"");
    assertThatThrownBy(() -> GoDuration.parse("9223372036854775808ns"))
        .hasMessageContaining("out of range (at most 2562047h47m16.854775807s)");
    assertThatThrownBy(() -> GoDuration.parse(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("missing duration");
  }

  /** The router's parser rejected these (or read blank as zero); the simulator's read a bare integer as ms. */
  @Test
  void casesWhereTheOldParsersDisagreedFollowGo() {
    assertThat(GoDuration.parse("-5s")).isEqualTo(Duration.ofSeconds(-5));
    assertThat(GoDuration.parse("+5s")).isEqualTo(Duration.ofSeconds(5));
    assertThat(GoDuration.parse("12μs")).isEqualTo(Duration.ofNanos(12_000));
    assertThat(GoDuration.parse("5.s")).isEqualTo(Duration.ofSeconds(5));
    assertThat(GoDuration.parse("0")).isZero();
    assertThatThrownBy(() -> GoDuration.parse("40")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GoDuration.parse("")).isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest(name = "{0} ns -> {1}")
  @CsvSource(delimiter = '|', textBlock = """
      0                    | 0s
      1                    | 1ns
      1100                 | 1.1µs
      2200000              | 2.2ms
      3300000000           | 3.3s
      245000000000         | 4m5s
      245001000000         | 4m5.001s
      18367001000000       | 5h6m7.001s
      480000000001         | 8m0.000000001s
      90000000000          | 1m30s
      3600000000000        | 1h0m0s
      250000               | 250µs
      -1500000000          | -1.5s
      9223372036854775807  | 2562047h47m16.854775807s
      -9223372036854775808 | -2562047h47m16.854775808s
      """)
  void formatsAsGoDoes(long nanos, String text) {
    assertThat(GoDuration.format(Duration.ofNanos(nanos))).isEqualTo(text);
    assertThat(GoDuration.parse(text)).isEqualTo(Duration.ofNanos(nanos));
  }

  @Test
  void convertersReportBadValuesToPicocli() {
    assertThat(new GoDuration.Converter().convert("-2s")).isEqualTo(Duration.ofSeconds(-2));
    assertThatThrownBy(() -> new GoDuration.Converter().convert("2 days"))
        .isInstanceOf(CommandLine.TypeConversionException.class).hasMessageContaining("\"2 days\"");
    assertThat(new GoDuration.NonNegativeConverter().convert("0")).isZero();
    assertThatThrownBy(() -> new GoDuration.NonNegativeConverter().convert("-2s"))
        .isInstanceOf(CommandLine.TypeConversionException.class).hasMessage("duration \"-2s\" must not be negative");
  }

  @Test
  void theTimeoutConverterReadsGoDurationsAndStillIso8601() {
    GoDuration.NonNegativeOrIso8601Converter c = new GoDuration.NonNegativeOrIso8601Converter();
    assertThat(c.convert("10m")).isEqualTo(Duration.ofMinutes(10));
    assertThat(c.convert("1h30m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(c.convert("0")).isZero();
    assertThat(c.convert("PT10M")).isEqualTo(Duration.ofMinutes(10));
    assertThat(c.convert(" pt1h30m ")).isEqualTo(Duration.ofMinutes(90));
    assertThat(c.convert("P1D")).isEqualTo(Duration.ofDays(1));
    assertThatThrownBy(() -> c.convert("-PT1M")).isInstanceOf(CommandLine.TypeConversionException.class)
        .hasMessage("duration \"-PT1M\" must not be negative");
    assertThatThrownBy(() -> c.convert("-1m")).isInstanceOf(CommandLine.TypeConversionException.class)
        .hasMessage("duration \"-1m\" must not be negative");
    assertThatThrownBy(() -> c.convert("PT10X")).isInstanceOf(CommandLine.TypeConversionException.class)
        .hasMessage("invalid duration \"PT10X\"; use a Go duration such as 300ms, 1.5s, 2m30s or 1h");
    assertThatThrownBy(() -> c.convert("ten minutes")).isInstanceOf(CommandLine.TypeConversionException.class)
        .hasMessageStartingWith("invalid duration \"ten minutes\"");
  }
}
