package dev.modelplane.simulator;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;

/**
 * Runs the project's install scripts (hack/…) for tools the tests need. A missing tool fails the test under
 * {@code CI=true} and skips it, with the reason, elsewhere.
 */
final class ExternalTools {
  private ExternalTools() {
  }

  static Path repoRoot() {
    String root = System.getProperty("modelplane.repo.root");
    Path p = root != null ? Path.of(root) : Path.of("").toAbsolutePath().getParent();
    return p.toAbsolutePath();
  }

  /** The output lines of a script under the repository root, or a skip/failure when it cannot run. */
  static List<String> runScript(String script, long timeoutMinutes) throws Exception {
    Path path = repoRoot().resolve(script);
    String why;
    if (!Files.isExecutable(path)) {
      why = script + " not found under " + repoRoot();
    } else {
      Path log = Files.createTempFile("modelplane-tool", ".log");
      Process p = new ProcessBuilder(path.toString()).redirectError(log.toFile()).start();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(timeoutMinutes, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        why = script + " timed out";
      } else if (p.exitValue() != 0) {
        why = script + " failed (exit " + p.exitValue() + "): " + tail(log);
      } else {
        Files.deleteIfExists(log);
        return new String(out, StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
      }
    }
    unavailable(why);
    return List.of();
  }

  static void unavailable(String why) {
    if ("true".equals(System.getenv("CI"))) {
      Assertions.fail(why + " (CI=true needs it)");
    }
    assumeTrue(false, why + "; skipping (set CI=true to make this a failure)");
  }

  static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
  }

  /** Runs a command; returns exit code and combined output. */
  record Result(int exit, String output) {
  }

  static Result run(List<String> command, long timeoutSeconds) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return new Result(-1, "timed out: " + new String(out, StandardCharsets.UTF_8));
    }
    return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
  }
}
