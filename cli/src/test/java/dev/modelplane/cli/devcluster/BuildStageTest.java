package dev.modelplane.cli.devcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class BuildStageTest {
  @Test
  void theHeadingThenTheBuildsOwnStepsIndentedThenTheTimeTaken() throws IOException {
    StringWriter text = new StringWriter();
    String result = BuildStage.run("building the control plane (first run, ~12 min)", new PrintWriter(text),
        steps -> {
          steps.accept("building etcd (about 1 minute)");
          steps.accept("  done in 61s");
          return "bin";
        });
    assertThat(result).isEqualTo("bin");
    assertThat(text.toString()).matches("building the control plane \\(first run, ~12 min\\)…\n"
        + "  building etcd \\(about 1 minute\\)\n  done in 61s\nbuilding the control plane… done in \\d+ s\n");
  }

  @Test
  void aFailureEndsTheStageWithItsError() {
    StringWriter text = new StringWriter();
    assertThatThrownBy(() -> BuildStage.run("building x", new PrintWriter(text), steps -> {
      throw new IOException("exit code 1");
    })).hasMessage("exit code 1");
    assertThat(text.toString()).isEqualTo("building x…\n");
  }

  @Test
  void elapsedTimeIsSecondsThenMinutes() {
    assertThat(BuildStage.done("building the CLI (first run)", Duration.ofSeconds(312)))
        .isEqualTo("building the CLI… done in 312 s");
    assertThat(BuildStage.done("building x", Duration.ofSeconds(754))).isEqualTo("building x… done in 12 min 34 s");
  }
}
