package dev.modelplane.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QuietBuildTest {
  @Test
  void onlyTheScriptsOwnStageLinesReachTheUserAndTheRestGoesToTheLog(@TempDir Path dir) throws Exception {
    List<String> stages = new ArrayList<>();
    Path log = dir.resolve("build.log");
    QuietBuild.Outcome outcome = QuietBuild.run(List.of("bash", "-c", """
        echo "cp: building k8s (about 9 minutes)" >&2
        echo "go: downloading k8s.io/api v0.37.1" >&2
        echo "cp:   done in 5s" >&2
        echo /cache/bin
        """), log, "cp: ", stages::add, 1);
    assertThat(outcome.ok()).isTrue();
    assertThat(outcome.stdout()).isEqualTo("/cache/bin");
    assertThat(stages).containsExactly("building k8s (about 9 minutes)", "  done in 5s");
    assertThat(Files.readString(log)).contains("go: downloading k8s.io/api v0.37.1");
  }

  @Test
  void aFailureShowsTheLastLinesOfTheLogAndWhereItIs(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("build.log");
    QuietBuild.Outcome outcome = QuietBuild.run(List.of("bash", "-c", """
        for i in $(seq 1 30); do echo "compiling package $i" >&2; done
        echo "main.go:3: undefined: x" >&2
        exit 2
        """), log, "cp: ", s -> { }, 1);
    assertThat(outcome.ok()).isFalse();
    assertThat(outcome.failure()).startsWith("exit code 2; the last lines of its log:\ncompiling package 12\n")
        .contains("compiling package 30\nmain.go:3: undefined: x\nfull log: " + log)
        .doesNotContain("compiling package 11\n");
  }
}
