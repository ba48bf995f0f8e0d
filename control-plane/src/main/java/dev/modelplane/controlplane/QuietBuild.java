package dev.modelplane.controlplane;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs a build script quietly: its whole output goes to a log file, only its own stage lines (those starting with
 * {@code prefix}) reach the user, and a failure shows the log's last lines and where the log is.
 */
public final class QuietBuild {
  /** How many lines of the log a failure shows. */
  static final int TAIL = 20;

  /** What a finished build printed on stdout, or why it failed (with the tail of its log). */
  public record Outcome(boolean ok, String stdout, String failure) {
  }

  private QuietBuild() {
  }

  /**
   * Runs {@code command}, its stderr into {@code log}; each stderr line starting with {@code prefix} also goes to
   * {@code stages} (without the prefix). Gives up after {@code timeoutMinutes}.
   */
  public static Outcome run(List<String> command, Path log, String prefix, Consumer<String> stages,
      long timeoutMinutes) throws IOException, InterruptedException {
    Files.createDirectories(log.toAbsolutePath().getParent());
    Process process = new ProcessBuilder(command).redirectErrorStream(false).start();
    Deque<String> tail = new ArrayDeque<>();
    Thread reader = Thread.ofVirtual().start(() -> copy(process, log, prefix, stages, tail));
    String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    boolean finished = process.waitFor(timeoutMinutes, TimeUnit.MINUTES);
    if (!finished) {
      process.destroyForcibly();
    }
    reader.join(TimeUnit.SECONDS.toMillis(10));
    if (finished && process.exitValue() == 0) {
      return new Outcome(true, stdout, "");
    }
    String why = finished ? "exit code " + process.exitValue() : "no end after " + timeoutMinutes + " min";
    synchronized (tail) {
      return new Outcome(false, stdout, why + "; the last lines of its log:\n" + String.join("\n", tail)
          + "\nfull log: " + log);
    }
  }

  private static void copy(Process process, Path log, String prefix, Consumer<String> stages, Deque<String> tail) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getErrorStream(),
        StandardCharsets.UTF_8)); Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        out.write(line + "\n");
        out.flush();
        synchronized (tail) {
          tail.addLast(line);
          if (tail.size() > TAIL) {
            tail.removeFirst();
          }
        }
        if (line.startsWith(prefix)) {
          stages.accept(line.substring(prefix.length()));
        }
      }
    } catch (IOException e) {
      stages.accept("(build log unreadable: " + e.getMessage() + ")");
    }
  }
}
