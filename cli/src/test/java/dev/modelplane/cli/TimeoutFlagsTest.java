package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/** {@code --timeout} of {@code up}, {@code dev-cluster up} and {@code deploy}: Go durations, ISO-8601 still read. */
class TimeoutFlagsTest {
  private static Duration timeout(String command, String... more) {
    List<String> args = new ArrayList<>(List.of(command.split(" ")));
    args.addAll(List.of(more));
    ParseResult result = new CommandLine(new Main()).parseArgs(args.toArray(String[]::new));
    while (result.hasSubcommand()) {
      result = result.subcommand();
    }
    return result.commandSpec().findOption("--timeout").getValue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"up", "dev-cluster up", "deploy x --model m"})
  void takesGoDurationsWithTenMinutesByDefault(String command) {
    assertThat(timeout(command)).isEqualTo(Duration.ofMinutes(10));
    assertThat(timeout(command, "--timeout", "90s")).isEqualTo(Duration.ofSeconds(90));
    assertThat(timeout(command, "--timeout", "1h30m")).isEqualTo(Duration.ofMinutes(90));
    String name = command.startsWith("deploy") ? "deploy" : command;
    MainTest.Result help = MainTest.run((name + " --help").split(" "));
    assertThat(help.out().replaceAll("\\s+", " ")).contains("(default: 10m;", "PT10M is still read but deprecated");
  }

  @ParameterizedTest
  @ValueSource(strings = {"up", "dev-cluster up", "deploy x --model m"})
  void stillReadsIso8601(String command) {
    assertThat(timeout(command, "--timeout", "PT3M")).isEqualTo(Duration.ofMinutes(3));
  }

  @ParameterizedTest
  @ValueSource(strings = {"up", "dev-cluster up", "deploy x --model m"})
  void anInvalidValueIsAUsageErrorThatShowsTheForm(String command) {
    List<String> args = new ArrayList<>(List.of(command.split(" ")));
    args.addAll(List.of("--timeout", "10 minutes"));
    MainTest.Result r = MainTest.run(args.toArray(String[]::new));
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).startsWith("Invalid value for option '--timeout': invalid duration \"10 minutes\": unknown "
        + "unit \" minutes\" (units: ns, us, ms, s, m, h); use a Go duration such as 300ms, 1.5s, 2m30s or 1h\n");
    MainTest.Result negative = MainTest.run((command + " --timeout -5m").split(" "));
    assertThat(negative.code()).isEqualTo(2);
    assertThat(negative.err()).startsWith("Invalid value for option '--timeout': duration \"-5m\" must not be "
        + "negative");
  }
}
