package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What {@code up} tells its operator about the router it starts. */
class UpCommandTest {
  @Test
  void theOperatorBenchmarksPoolsThroughUpsRouterWhenItHasTheSetting() {
    boolean operatorHasIt = new CommandLine(new OperatorCommand()).getCommandSpec()
        .findOption(UpCommand.BENCHMARK_ROUTER_URL) != null;
    assertThat(UpCommand.benchmarkRouterArgs("0.0.0.0", 18080)).isEqualTo(operatorHasIt
        ? List.of("--benchmark-router-url", "http://127.0.0.1:18080") : List.of());
    assertThat(UpCommand.benchmarkRouterArgs("::1", 8080)).isEqualTo(operatorHasIt
        ? List.of("--benchmark-router-url", "http://[::1]:8080") : List.of());
  }
}
