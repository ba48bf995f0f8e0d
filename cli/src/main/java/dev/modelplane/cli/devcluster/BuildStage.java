package dev.modelplane.cli.devcluster;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * One long build stage as the user sees it: {@code building the control plane (first run, ~12 min)…}, the build's
 * own stage lines indented below it, then {@code done in 312 s} (or the failure).
 */
public final class BuildStage {
  /** The work of a stage, told where to report its own steps. */
  @FunctionalInterface
  public interface Work<T> {
    T run(Consumer<String> steps) throws IOException;
  }

  private BuildStage() {
  }

  /** Runs {@code work} under the heading {@code what}, printing to {@code out}. */
  public static <T> T run(String what, PrintWriter out, Work<T> work) throws IOException {
    out.println(what + "…");
    out.flush();
    long started = System.nanoTime();
    try {
      T result = work.run(step -> {
        out.println("  " + step.strip());
        out.flush();
      });
      out.println(done(what, Duration.ofNanos(System.nanoTime() - started)));
      return result;
    } finally {
      out.flush();
    }
  }

  /** {@code building the control plane… done in 312 s} (minutes and seconds from ten minutes on). */
  static String done(String what, Duration elapsed) {
    String heading = what.replaceAll(" \\(.*\\)$", "");
    long s = elapsed.toSeconds();
    return heading + "… done in " + (s < 600 ? s + " s" : s / 60 + " min " + s % 60 + " s");
  }
}
