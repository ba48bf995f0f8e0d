package dev.modelplane.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official Anthropic Python SDK (PyPI {@code anthropic}), unmodified, against an in-process simulator's
 * {@code /v1/messages}: a message, a stream through the SDK's stream helper, {@code count_tokens}, and a 404 read
 * as the SDK's {@code NotFoundError}. hack/clients/setup.sh installs it beside the OpenAI SDK.
 */
class AnthropicClientTest {
  static Simulator sim;
  static List<String> clients;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() throws Exception {
    clients = ExternalTools.runScript("hack/clients/setup.sh", 10);
    sim = Simulator.start(SimulatorConfig.of("client-model").host("127.0.0.1").port(0).mode("echo").seed(3)
        .interTokenLatency(Duration.ofMillis(2)));
  }

  @AfterAll
  static void stop() {
    if (sim != null) {
      sim.close();
    }
  }

  @Test
  void officialPythonSdk() throws Exception {
    Path script = dir.resolve("anthropic_client.py");
    try (InputStream in = getClass().getResourceAsStream("/clients/anthropic_client.py")) {
      Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
    }
    ExternalTools.Result r = ExternalTools.run(List.of(clients.get(0), script.toString(),
        "http://127.0.0.1:" + sim.port(), "client-model"), 120);
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).contains("python anthropic", "OK");
  }
}
