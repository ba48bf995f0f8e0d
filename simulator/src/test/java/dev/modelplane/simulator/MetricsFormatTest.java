package dev.modelplane.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * /metrics must parse with Prometheus's own strict text parser and pass its linter: {@code promtool check metrics},
 * built from the Go module by hack/promtool/build.sh (cached under ~/.cache/modelplane/promtool).
 */
class MetricsFormatTest {
  @TempDir
  Path dir;

  private Path file(String name, String text) throws Exception {
    return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
  }

  private static Process promtool(String promtool, Path input) throws Exception {
    Process p = new ProcessBuilder(promtool, "check", "metrics").redirectInput(input.toFile())
        .redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    p.waitFor(60, TimeUnit.SECONDS);
    return p;
  }

  @Test
  void metricsPassPromtoolCheckMetrics() throws Exception {
    List<String> out = ExternalTools.runScript("hack/promtool/build.sh", 20);
    String promtool = out.get(out.size() - 1);
    try (Simulator sim = Simulator.start(SimulatorConfig.of("fmt \"model\"").host("127.0.0.1").port(0).seed(1)
        .interTokenLatency(Duration.ofMillis(1)).loraModules(List.of("lora-a=/x")))) {
      SimClient c = new SimClient(sim.port());
      c.post("/v1/completions", SimClient.completion("fmt \"model\"", "some words to count", 4, false));
      c.stream("/v1/completions", SimClient.completion("lora-a", "some words to count", 3, true));
      c.post("/v1/completions", SimClient.completion("unknown", "x", 1, false));
      String metrics = c.metrics();
      assertThat(metrics).contains("model_name=\"fmt \\\"model\\\"\"");
      Path file = Files.writeString(dir.resolve("metrics.txt"), metrics, StandardCharsets.UTF_8);
      Process p = new ProcessBuilder(promtool, "check", "metrics").redirectInput(file.toFile())
          .redirectErrorStream(true).start();
      String report = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      // Exit 1 is a parse error; 3 means lint findings. vLLM's names contain ':' by contract (the router and every
      // dashboard match them), so that one lint rule is the only finding allowed.
      assertThat(p.exitValue()).as("promtool check metrics:\n" + report).isIn(0, 3);
      assertThat(report.lines().filter(l -> !l.isBlank())
          .filter(l -> !l.endsWith("metric names should not contain ':'"))).as(report).isEmpty();
      assertThat(promtool(promtool, file("broken.txt", "# TYPE x counter\nx_total{a=\"1\" 2\n")).exitValue())
          .as("promtool must reject malformed exposition text").isEqualTo(1);
    }
  }
}
