package dev.modelplane.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * A program built from another project's sources for an interop test ({@code hack/<name>/build.sh}). Found, in this
 * order: at the path in the environment variable (or system property) the caller names; from the background build
 * {@code hack/test} starts ({@code $MODELPLANE_PEERS_DIR/<name>.path}, waited for until its {@code <name>.rc} says how
 * it ended, since a cold build takes minutes). When there is none the calling test is skipped, or fails under
 * {@code CI=true}, with the reason.
 */
public final class PeerBinary {
  private static final Duration BUILD_WAIT = Duration.ofMinutes(40);

  private PeerBinary() {
  }

  /**
   * The peer's executable.
   *
   * @param name the build script's directory under {@code hack/}, e.g. {@code llm-d-sim}
   * @param variable the environment variable that may give the path, e.g. {@code MODELPLANE_LLMD_SIM_BIN}
   */
  public static Path require(String name, String variable) throws IOException, InterruptedException {
    String configured = System.getProperty(variable, System.getenv(variable));
    if (configured != null && !configured.isBlank()) {
      Path bin = Path.of(configured);
      if (!Files.isExecutable(bin)) {
        throw new IllegalStateException(variable + "=" + configured + " is not an executable file");
      }
      return bin;
    }
    String dir = System.getenv("MODELPLANE_PEERS_DIR");
    if (dir == null || dir.isBlank()) {
      return unavailable(name + " is not built: run hack/" + name + "/build.sh (needs Go) and set " + variable
          + " to the path it prints, or run the tests through hack/test");
    }
    Path rc = Path.of(dir, name + ".rc");
    long deadline = System.nanoTime() + BUILD_WAIT.toNanos();
    while (!Files.exists(rc) && System.nanoTime() < deadline) {
      Thread.sleep(2_000);
    }
    if (!Files.exists(rc)) {
      return unavailable(name + " was still building after " + BUILD_WAIT.toMinutes() + " minutes; see "
          + Path.of(dir, name + ".log"));
    }
    if (!Files.readString(rc).strip().equals("0")) {
      Path log = Path.of(dir, name + ".log");
      List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
      return unavailable("building " + name + " failed (hack/" + name + "/build.sh); the end of its log:\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size())));
    }
    return Path.of(Files.readString(Path.of(dir, name + ".path")).strip());
  }

  private static Path unavailable(String why) {
    if ("true".equals(System.getenv("CI"))) {
      throw new IllegalStateException("CI=true needs this peer: " + why);
    }
    Assumptions.abort("skipped: " + why);
    return null;
  }
}
