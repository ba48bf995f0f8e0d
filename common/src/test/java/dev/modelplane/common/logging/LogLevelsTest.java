package dev.modelplane.common.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

class LogLevelsTest {
  @Test
  void aLevelThenLoggerOverrides() {
    LogLevels l = LogLevels.parse(" INFO , dev.modelplane.router=debug,io.fabric8=Warn,");
    assertThat(l.root()).isEqualTo(Level.INFO);
    assertThat(l.loggers()).containsExactly(Map.entry("dev.modelplane.router", Level.DEBUG),
        Map.entry("io.fabric8", Level.WARN));
    assertThat(l).hasToString("info,dev.modelplane.router=debug,io.fabric8=warn");
    assertThat(LogLevels.parse(l.toString())).isEqualTo(l);
  }

  @Test
  void defaults() {
    assertThat(LogLevels.parse("")).isEqualTo(LogLevels.DEFAULT);
    assertThat(LogLevels.parse(null)).isEqualTo(LogLevels.DEFAULT);
    assertThat(LogLevels.parse("dev.modelplane=trace").root()).isEqualTo(Level.INFO);
    assertThat(LogLevels.parse("off").root()).isEqualTo(Level.OFF);
    assertThat(LogLevels.parse("warn").with("dev.modelplane.router", Level.DEBUG))
        .hasToString("warn,dev.modelplane.router=debug");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      verbose                  | unknown log level "verbose" in "verbose": use trace, debug, info, warn, error or off
      info,x=loud              | unknown log level "loud" in "info,x=loud": use trace, debug, info, warn, error or off
      info,debug               | invalid log levels "info,debug": two levels for every logger ("info" and "debug")
      =debug                   | invalid log levels "=debug": "=debug" is not LOGGER=LEVEL
      'a b=debug'              | invalid log levels "a b=debug": "a b=debug" is not LOGGER=LEVEL
      """)
  void errorsNameTheBadPart(String spec, String message) {
    assertThatThrownBy(() -> LogLevels.parse(spec)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(message);
  }

  @Test
  void formatsParseByName() {
    assertThat(LogFormat.parse("JSON")).isEqualTo(LogFormat.JSON);
    assertThat(LogFormat.parse("keyvalue")).isEqualTo(LogFormat.KEYVALUE);
    assertThatThrownBy(() -> LogFormat.parse("xml")).hasMessage("unknown log format \"xml\": use keyvalue or json");
    assertThatThrownBy(() -> new LogFormat.Converter().convert("text"))
        .isInstanceOf(CommandLine.TypeConversionException.class);
    assertThatThrownBy(() -> new LogLevels.Converter().convert("loud"))
        .isInstanceOf(CommandLine.TypeConversionException.class).hasMessageContaining("unknown log level \"loud\"");
  }
}
