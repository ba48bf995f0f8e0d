package dev.modelplane.router;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.common.logging.LogFormat;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class GieFlagsTest {
  /** The arguments OtterScale's operator gives its endpoint picker (two replicas, tracing off, no metrics auth). */
  private static final List<String> OTTERSCALE = List.of("--pool-name=qwen", "--pool-namespace=team",
      "--pool-group=inference.networking.k8s.io", "--config-file=/config/pd-config.yaml", "--grpc-port=9002",
      "--zap-encoder=json", "--ha-enable-leader-election", "--tracing=false", "--metrics-endpoint-auth=false");

  private static String refused(String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream saved = System.err;
    try {
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      int code = new CommandLine(new RouterCommand()).execute(args);
      assertThat(code).isEqualTo(2);
    } finally {
      System.setErr(saved);
    }
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void otterScalesPickerArgumentsParseIntoThePoolTheConfigAndTheLogFormat() {
    RouterCommand command = new RouterCommand();
    new CommandLine(command).parseArgs(OTTERSCALE.toArray(String[]::new));
    assertThat(command.pools).containsExactly("qwen");
    assertThat(command.poolNamespace).isEqualTo("team");
    assertThat(command.config).isEqualTo(Path.of("/config/pd-config.yaml"));
    assertThat(command.grpcPort).isEqualTo(9002);
    assertThat(command.gie.check()).isNull();
    assertThat(command.gie.logFormat()).isEqualTo(LogFormat.JSON);
    assertThat(command.gie.leaderElection).isTrue();
    assertThat(command.gie.tracing).isFalse();
  }

  @Test
  void whatTheRouterCannotHonourIsRefusedByName() {
    assertThat(refused("--pool-name=qwen", "--pool-group=inference.networking.x-k8s.io"))
        .contains("router: --pool-group inference.networking.x-k8s.io is not supported: this router serves "
            + "inference.networking.k8s.io/v1 InferencePools");
    assertThat(refused("--endpoints=127.0.0.1:1", "--metrics-endpoint-auth"))
        .contains("router: --metrics-endpoint-auth=true needs the Kubernetes API to check tokens");
    assertThat(refused("--pool-name=qwen", "--zap-encoder=xml")).contains("--zap-encoder must be json or console");
  }

  @Test
  void anUnknownFlagFailsNamingIt() {
    StringWriter err = new StringWriter();
    int code = new CommandLine(new RouterCommand()).setErr(new PrintWriter(err))
        .execute("--pool-name=qwen", "--tls-min-version=VersionTLS13");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("Unknown option: '--tls-min-version=VersionTLS13'");
  }

  @Test
  void tracingIsOffByDefaultAndFollowsGiesSamplingWhenOn() {
    GieFlags off = new GieFlags();
    assertThat(off.tracingSettings(java.util.Map.of()).enabled()).isFalse();
    GieFlags on = new GieFlags();
    on.tracing = true;
    var s = on.tracingSettings(java.util.Map.of());
    assertThat(s.enabled()).isTrue();
    assertThat(s.sampler()).isEqualTo("parentbased_traceidratio");
    assertThat(s.ratio()).isEqualTo(0.1);
    assertThat(s.serviceName()).isEqualTo("modelplane-router");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> on.tracingSettings(
        java.util.Map.of("OTEL_TRACES_SAMPLER_ARG", "2"))).hasMessageContaining("OTEL_TRACES_SAMPLER_ARG");
  }
}
