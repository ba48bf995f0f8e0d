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
 * The official OpenAI SDKs (PyPI {@code openai}, npm {@code openai}) and Anthropic's Python SDK (PyPI
 * {@code anthropic}), unmodified, against an in-process simulator on a free loopback port; streaming included.
 * hack/clients/setup.sh installs them into ~/.cache/modelplane.
 */
class OpenAiClientsTest {
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

  private Path script(String name) throws Exception {
    Path target = dir.resolve(name);
    try (InputStream in = getClass().getResourceAsStream("/clients/" + name)) {
      Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
    }
    return target;
  }

  private String baseUrl() {
    return "http://127.0.0.1:" + sim.port() + "/v1";
  }

  @Test
  void officialPythonSdk() throws Exception {
    ExternalTools.Result r = ExternalTools.run(List.of(clients.get(0), script("openai_client.py").toString(),
        baseUrl(), "client-model"), 120);
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).contains("python openai", "OK");
  }

  @Test
  void officialNodeSdk() throws Exception {
    Path nodeModules = Path.of(clients.get(1));
    // ESM resolves packages from the script's folder upwards, so the script sits beside the installed node_modules.
    Path script = Files.copy(script("openai_client.mjs"), nodeModules.getParent().resolve("openai_client.mjs"),
        StandardCopyOption.REPLACE_EXISTING);
    ExternalTools.Result r = ExternalTools.run(List.of("node", script.toString(), baseUrl(), "client-model"), 120);
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).contains("node openai", "OK");
  }

  /** Anthropic's SDK on {@code /v1/messages}: a message, its stream helper, count_tokens, a 404 as NotFoundError. */
  @Test
  void officialAnthropicPythonSdk() throws Exception {
    ExternalTools.Result r = ExternalTools.run(List.of(clients.get(0), script("anthropic_client.py").toString(),
        "http://127.0.0.1:" + sim.port(), "client-model"), 120);
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).contains("python anthropic", "OK");
  }
}
