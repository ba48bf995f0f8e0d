package dev.modelplane.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code modelplane simulator} as a process: it logs through the shared logging setup, on stderr. */
class SimulatorCommandTest {
  /** Entry point of the child JVM. */
  public static final class Main {
    public static void main(String[] args) {
      System.exit(new CommandLine(new SimulatorCommand()).execute(args));
    }
  }

  private static Process start(String... flags) throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
        Main.class.getName(), "--model", "m", "--host", "127.0.0.1", "--port", "0"));
    command.addAll(List.of(flags));
    return new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
  }

  /** The first stderr line that mentions {@code text}; the process is stopped afterwards. */
  private static String lineWith(Process p, String text) throws Exception {
    Thread guard = Thread.ofVirtual().start(() -> {
      try {
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    try (BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = err.readLine()) != null; ) {
        if (line.contains(text)) {
          return line;
        }
      }
      return null;
    } finally {
      p.destroy();
      p.waitFor(20, TimeUnit.SECONDS);
      guard.interrupt();
    }
  }

  @Test
  void startUpIsOneKeyValueLine() throws Exception {
    String line = lineWith(start(), "simulator started");
    assertThat(line).matches("ts=\\S+ level=INFO logger=SimulatorCommand msg=\"simulator started\" model=m "
        + "ports=\\d+ calculator=per-token hardware=- max_num_seqs=5 max_num_batched_tokens=2048 kv_blocks=1024 "
        + "block_size=16 time_scale=1.0");
  }

  @Test
  void aPresetStartsTheStepModelWithVllmsDefaultsForItsGpu() throws Exception {
    String line = lineWith(start("--preset", "llama-3.1-8b-h100"), "simulator started");
    assertThat(line).contains("calculator=step hardware=llama-3.1-8b@h100 max_num_seqs=1024 "
        + "max_num_batched_tokens=8192 kv_blocks=27550 ");
  }

  @Test
  void startUpIsOneJsonLineWhenAskedFor() throws Exception {
    JsonNode json = new ObjectMapper().readTree(lineWith(start("--log-format=json"), "simulator started"));
    assertThat(json.path("logger").asText()).isEqualTo("dev.modelplane.simulator.SimulatorCommand");
    assertThat(json.path("msg").asText()).isEqualTo("simulator started");
    assertThat(json.path("max_num_seqs").asInt()).isEqualTo(5);
    assertThat(json.path("ports").asText()).matches("\\d+");
  }
}
