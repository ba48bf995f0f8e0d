package dev.modelplane.router;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class RouterCommandTest {
  @Test
  void configTextAndConfigFileTogetherAreRefused() {
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    PrintStream saved = System.err;
    int code;
    try {
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      code = new CommandLine(new RouterCommand()).execute("--endpoints", "127.0.0.1:1", "--config", "epp.yaml",
          "--config-text", "kind: EndpointPickerConfig");
    } finally {
      System.setErr(saved);
    }
    assertThat(code).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("router: give --config FILE or --config-text YAML, not both");
  }

  @Test
  void anInvalidInlineConfigFailsBeforeAnythingStartsWithTheConfigsOwnMessage() {
    StringWriter err = new StringWriter();
    CommandLine line = new CommandLine(new RouterCommand()).setErr(new java.io.PrintWriter(err));
    int code = line.execute("--endpoints", "127.0.0.1:1", "--port", "-1", "--grpc-port", "-1",
        "--config-text", "plugins: [{type: no-such-plugin}]");
    assertThat(code).isNotZero();
    assertThat(err.toString()).contains("no-such-plugin");
  }

  @Test
  void theInlineConfigIsTaken() {
    RouterCommand command = new RouterCommand();
    new CommandLine(command).parseArgs("--config-text", "plugins: []");
    assertThat(command.configText).isEqualTo("plugins: []");
  }

  @Test
  void requestLimitFlagsAreReadAndAnInFlightBudgetBelowTheBodyLimitIsRefused() {
    RouterCommand command = new RouterCommand();
    new CommandLine(command).parseArgs("--max-inflight-request-bytes", "300Mi", "--max-request-json-elements", "5");
    assertThat(command.maxBody).isEqualTo("8Mi");
    assertThat(command.maxInflight).isEqualTo("300Mi");
    assertThat(command.maxJsonElements).isEqualTo(5);
    assertThat(refused("--endpoints", "127.0.0.1:1", "--max-body-bytes", "16Mi", "--max-inflight-request-bytes",
        "1Mi")).contains("router: the in-flight request bytes budget (1048576) must be at least the body limit "
        + "(16777216)");
    assertThat(refused("--endpoints", "127.0.0.1:1", "--max-request-json-depth", "0"))
        .contains("router: JSON limits must be positive");
  }

  @Test
  void allowedPathPrefixesAreReadAndOneNotInNormalFormIsRefused() {
    RouterCommand command = new RouterCommand();
    new CommandLine(command).parseArgs("--allowed-path-prefix", "/generate,/v2/", "--allowed-path-prefix", "/x");
    assertThat(command.allowedPathPrefixes).containsExactly("/generate", "/v2/", "/x");
    for (String bad : new String[] {"generate", "/v1/../sleep", "/a%2Fb", "/a//b", "/a?b"}) {
      assertThat(refused("--endpoints", "127.0.0.1:1", "--allowed-path-prefix", bad)).as(bad)
          .contains("router: allowed path prefix '" + bad + "' must be an absolute path in normal form");
    }
  }

  private static String refused(String... args) {
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    PrintStream saved = System.err;
    int code;
    try {
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      code = new CommandLine(new RouterCommand()).execute(args);
    } finally {
      System.setErr(saved);
    }
    assertThat(code).isEqualTo(2);
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void tlsFlagsThatDoNotFitTogetherAreRefusedByName() {
    assertThat(refused("--endpoints", "127.0.0.1:1", "--secure-serving=false", "--cert-path", "/nonexistent"))
        .contains("router: --cert-path needs --secure-serving (it is off)");
    assertThat(refused("--endpoints", "127.0.0.1:1", "--enable-cert-reload"))
        .contains("router: --enable-cert-reload needs --cert-path");
    assertThat(refused("--endpoints", "127.0.0.1:1", "--cert-path", "/nonexistent"))
        .contains("router: --cert-path /nonexistent must hold readable tls.crt and tls.key");
    assertThat(refused("--endpoints", "127.0.0.1:1", "--epp", "127.0.0.1:2", "--epp-tls=false",
        "--epp-insecure-skip-verify")).contains("need --epp-tls (it is off)");
    assertThat(refused("--endpoints", "127.0.0.1:1", "--epp", "127.0.0.1:2", "--epp-ca-file", "/nonexistent",
        "--epp-insecure-skip-verify")).contains("give --epp-ca-file or --epp-insecure-skip-verify, not both");
  }

  @Test
  void endpointPickerRefsAreFollowedByDefaultAndAnUnknownModeIsRefused() {
    RouterCommand command = new RouterCommand();
    new CommandLine(command).parseArgs("--pool-name=qwen");
    assertThat(RouterOptions.PickerRefs.parse(command.endpointPickerRefs)).isEqualTo(RouterOptions.PickerRefs.FOLLOW);
    new CommandLine(command = new RouterCommand()).parseArgs("--pool-name=qwen", "--endpoint-picker-refs=in-process");
    assertThat(RouterOptions.PickerRefs.parse(command.endpointPickerRefs))
        .isEqualTo(RouterOptions.PickerRefs.IN_PROCESS);
    assertThat(refused("--endpoints", "127.0.0.1:1", "--endpoint-picker-refs=sometimes"))
        .contains("router: --endpoint-picker-refs must be follow or in-process, not 'sometimes'");
  }

  @Test
  void gieSecureServingFlagsParseAsTheReferencePickerTakesThem() {
    RouterCommand command = new RouterCommand();
    new CommandLine(command).parseArgs("--pool-name=qwen");
    assertThat(command.secureServing).isTrue();
    assertThat(command.eppTls).isTrue();
    new CommandLine(command = new RouterCommand()).parseArgs("--pool-name=qwen", "--secure-serving=false",
        "--epp-tls=false");
    assertThat(command.secureServing).isFalse();
    assertThat(command.eppTls).isFalse();
    new CommandLine(command = new RouterCommand()).parseArgs("--cert-path", "/certs", "--enable-cert-reload");
    assertThat(command.certPath).hasToString("/certs");
    assertThat(command.enableCertReload).isTrue();
  }

  @Test
  void timeoutFlagsTakeGoDurationsAndDefaultForLlmTraffic() {
    RouterCommand command = new RouterCommand();
    new CommandLine(command).parseArgs("--endpoints", "127.0.0.1:1");
    assertThat(command.upstreamResponseTimeout).hasMinutes(10);
    assertThat(command.upstreamIdleTimeout).hasMinutes(2);
    assertThat(command.clientIdleTimeout).hasSeconds(60);
    assertThat(command.clientRequestTimeout).hasSeconds(60);
    new CommandLine(command = new RouterCommand()).parseArgs("--upstream-response-timeout=30m",
        "--upstream-idle-timeout=0", "--client-idle-timeout=5s", "--client-request-timeout=1m30s");
    assertThat(command.upstreamResponseTimeout).hasMinutes(30);
    assertThat(command.upstreamIdleTimeout).isZero();
    assertThat(command.clientIdleTimeout).hasSeconds(5);
    assertThat(command.clientRequestTimeout).hasSeconds(90);
  }

  @Test
  void aNegativeTimeoutIsRefused() {
    StringWriter err = new StringWriter();
    int code = new CommandLine(new RouterCommand()).setErr(new java.io.PrintWriter(err))
        .execute("--endpoints", "127.0.0.1:1", "--upstream-idle-timeout=-1s");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("--upstream-idle-timeout");
  }
}
