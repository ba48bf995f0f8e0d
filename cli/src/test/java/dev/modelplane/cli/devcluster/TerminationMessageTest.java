package dev.modelplane.cli.devcluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Termination messages as the kubelet reads them. */
class TerminationMessageTest {
  @TempDir
  Path tmp;

  @Test
  void theFileIsTheMessageCappedAt4096Bytes() throws Exception {
    Path file = Files.writeString(tmp.resolve("t"), "x".repeat(5000));
    Path log = Files.writeString(tmp.resolve("log"), "boom\n");
    assertThat(TerminationMessage.read(file, "FallbackToLogsOnError", 1, log)).hasSize(4096);
    Files.writeString(file, "{\"results\":[]}");
    assertThat(TerminationMessage.read(file, "File", 0, log)).isEqualTo("{\"results\":[]}");
  }

  @Test
  void aFailedContainerWithAnEmptyFileGetsTheEndOfItsLogWithFallbackToLogsOnError() throws Exception {
    Path file = Files.writeString(tmp.resolve("t"), "");
    String lines = IntStream.rangeClosed(1, 100).mapToObj(i -> "line " + i).collect(Collectors.joining("\n"));
    Path log = Files.writeString(tmp.resolve("log"), lines + "\nError: Invalid value for '--task'\n");
    String message = TerminationMessage.read(file, "FallbackToLogsOnError", 2, log);
    assertThat(message.lines()).hasSize(80);
    assertThat(message).startsWith("line 22\n").endsWith("Error: Invalid value for '--task'");
    assertThat(TerminationMessage.read(file, "FallbackToLogsOnError", 0, log)).isEmpty();
    assertThat(TerminationMessage.read(file, "File", 2, log)).isEmpty();
    assertThat(TerminationMessage.read(file, null, 2, log)).isEmpty();
  }

  @Test
  void theLogTailIsAtMost2048BytesOfWholeCharacters() throws Exception {
    Path log = Files.writeString(tmp.resolve("log"), "é".repeat(3000), StandardCharsets.UTF_8);
    String tail = TerminationMessage.logTail(log);
    assertThat(tail).matches("é+");
    assertThat(tail.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(2048).isGreaterThan(2040);
    assertThat(TerminationMessage.logTail(tmp.resolve("missing"))).isEmpty();
  }
}
