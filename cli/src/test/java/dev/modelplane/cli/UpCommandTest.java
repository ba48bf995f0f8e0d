package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** What {@code up} tells its operator about the router it starts, and the ports it gives both. */
class UpCommandTest {
  @TempDir
  Path dir;

  @Test
  void theOperatorBenchmarksPoolsThroughUpsRouterWhenItHasTheSetting() {
    boolean operatorHasIt = new CommandLine(new OperatorCommand()).getCommandSpec()
        .findOption(UpCommand.BENCHMARK_ROUTER_URL) != null;
    assertThat(UpCommand.benchmarkRouterArgs("0.0.0.0", 18080)).isEqualTo(operatorHasIt
        ? List.of("--benchmark-router-url", "http://127.0.0.1:18080") : List.of());
    assertThat(UpCommand.benchmarkRouterArgs("::1", 8080)).isEqualTo(operatorHasIt
        ? List.of("--benchmark-router-url", "http://[::1]:8080") : List.of());
  }

  @Test
  void portZeroIsPickedFreeAndDistinctWhileGivenPortsStay() throws Exception {
    UpPorts requested = new UpPorts(0, 0, 0, 0, 0);
    assertThat(requested.picksAny()).isTrue();
    UpPorts picked = requested.resolve("127.0.0.1");
    assertThat(picked.all()).doesNotContain(0).doesNotHaveDuplicates();
    assertThat(picked.picksAny()).isFalse();
    assertThat(picked.busy("127.0.0.1")).isEmpty();

    UpPorts mixed = new UpPorts(picked.gateway(), 0, 0, picked.metrics(), 0).resolve("127.0.0.1");
    assertThat(mixed.gateway()).isEqualTo(picked.gateway());
    assertThat(mixed.metrics()).isEqualTo(picked.metrics());
    assertThat(mixed.all()).doesNotContain(0).doesNotHaveDuplicates();
    assertThat(mixed.describe()).isEqualTo("gateway " + mixed.gateway() + ", ext_proc " + mixed.grpc()
        + ", gRPC health " + mixed.grpcHealth() + ", metrics " + mixed.metrics() + ", operator " + mixed.operator());
  }

  @Test
  void aGivenPortSomethingListensOnIsNamedButZeroNeverIs() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      UpPorts ports = new UpPorts(0, 0, taken.getLocalPort(), 0, 0);
      assertThat(ports.busy("127.0.0.1")).contains(taken.getLocalPort());
      assertThat(ports.resolve("127.0.0.1").all()).containsOnlyOnce(taken.getLocalPort());
    }
  }

  @Test
  void platformJsonRecordsEveryPortAndReadsAnOlderFileWithTheGatewayOnly() throws Exception {
    UpPorts ports = new UpPorts(18080, 19002, 19003, 19090, 18081);
    new PlatformState(1, 2, 3, "127.0.0.1", ports).write(dir);
    PlatformState read = PlatformState.read(dir).orElseThrow();
    assertThat(read).isEqualTo(new PlatformState(1, 2, 3, "127.0.0.1", 18080, 19002, 19003, 19090, 18081));
    assertThat(read.ports()).contains(ports);
    assertThat(DevClusterCommand.JSON.readTree(dir.resolve(PlatformState.FILE).toFile()).fieldNames())
        .toIterable().containsExactlyInAnyOrder("clusterPid", "operatorPid", "routerPid", "host", "port", "grpcPort",
            "grpcHealthPort", "metricsPort", "operatorPort");

    Files.writeString(dir.resolve(PlatformState.FILE),
        "{\"clusterPid\":1,\"operatorPid\":2,\"routerPid\":3,\"host\":\"127.0.0.1\",\"port\":8080}");
    PlatformState old = PlatformState.read(dir).orElseThrow();
    assertThat(old.port()).isEqualTo(8080);
    assertThat(old.ports()).isEmpty();
  }

  @Test
  void theHelpSaysZeroPicksAFreePort() {
    String help = new CommandLine(new UpCommand()).getUsageMessage(CommandLine.Help.Ansi.OFF).replaceAll("\\s+", " ");
    for (String flag : List.of("--port", "--grpc-port", "--grpc-health-port", "--metrics-port", "--operator-port")) {
      assertThat(help).containsPattern(flag + "=<\\w+> [^-]*; 0 picks a free one \\(default");
    }
    assertThat(help).contains("A port given as 0 is picked free");
  }
}
