package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ModelAgentCommandTest {
  private record Run(int code, String out, String err) {
  }

  private static Run run(String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      int code = Main.run(args);
      return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }

  @Test
  void helpListsEveryFlag() {
    Run r = run("model-agent", "--help");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("Usage: modelplane model-agent", "--node-name", "--namespace", "--models-root",
        "--hf-endpoint", "--max-concurrent-downloads", "--progress-interval", "--kubeconfig", "--http-port",
        "--log-level", "--max-retries", "--retry-backoff", "--download-attempts");
    assertThat(run("--help").out()).contains("model-agent");
  }

  @Test
  void aMissingNodeNameIsAUsageError() {
    Run r = run("model-agent", "--kubeconfig=/nonexistent");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--node-name is required (or set $NODE_NAME)", "Usage: modelplane model-agent");
  }

  @Test
  void badLimitsAreUsageErrors() {
    Run budget = run("model-agent", "--node-name=n", "--disk-budget=lots");
    assertThat(budget.code()).isEqualTo(2);
    assertThat(budget.err()).contains("--disk-budget must be a quantity such as 500Gi, not 'lots'");
    Run negative = run("model-agent", "--node-name=n", "--disk-budget=-1Gi");
    assertThat(negative.code()).isEqualTo(2);
    assertThat(negative.err()).contains("--disk-budget must be 0 to 8Ei, not '-1Gi'");
    Run listed = run("model-agent", "--node-name=n", "--max-listed-objects=0");
    assertThat(listed.code()).isEqualTo(2);
    assertThat(listed.err()).contains("--max-listed-objects must be positive, got 0");
    Run models = run("model-agent", "--node-name=n", "--max-models-per-node=0");
    assertThat(models.code()).isEqualTo(2);
    assertThat(models.err()).contains("--max-models-per-node must be positive, got 0");
    assertThat(run("model-agent", "--help").out()).contains("--disk-budget", "--max-listed-objects",
        "--max-models-per-node");
  }

  @Test
  void operatorModelRootsMustBeAbsolute() {
    Run r = run("operator", "--kubeconfig=/nonexistent", "--model-agent-roots=models");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("model root 'models' must be an absolute directory without '..'");
    Run t = run("operator", "--kubeconfig=/nonexistent", "--model-agent-timeout=0s");
    assertThat(t.code()).isEqualTo(2);
    assertThat(t.err()).contains("the model agent timeout must be positive");
  }

  @Test
  void badSettingsAreUsageErrors() {
    assertThat(run("model-agent", "--node-name=n", "--models-root=relative").err())
        .contains("--models-root 'relative' must be an absolute directory without '..'");
    assertThat(run("model-agent", "--node-name=n", "--models-root=relative").code()).isEqualTo(2);
    Run zero = run("model-agent", "--node-name=n", "--max-concurrent-downloads=0");
    assertThat(zero.code()).isEqualTo(2);
    assertThat(zero.err()).contains("--max-concurrent-downloads must be 1 to 64, got 0");
    Run hub = run("model-agent", "--node-name=n", "--hf-endpoint=ftp://hub");
    assertThat(hub.code()).isEqualTo(2);
    assertThat(hub.err()).contains("Hugging Face endpoint must be an http(s) URL");
    assertThat(run("model-agent", "--node-name=n", "--progress-interval=soon").code()).isEqualTo(2);
  }
}
