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
}
