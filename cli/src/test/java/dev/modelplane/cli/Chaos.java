package dev.modelplane.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/** What the chaos tests share: bounded waits and retries, rates over a window, the summary file. */
final class Chaos {
  /** Where each chaos test appends its one-line summary. */
  static final Path SUMMARY = Path.of("target", "chaos-summary.txt");

  private Chaos() {
  }

  /**
   * Requests and reconciles per second over a window.
   *
   * @param requestsPerSecond API requests per second
   * @param reconcilesPerSecond reconciles started per second
   */
  record Rate(double requestsPerSecond, double reconcilesPerSecond) {
    static Rate measure(LongSupplier requests, DoubleSupplier reconciles, Duration window)
        throws InterruptedException {
      long r0 = requests.getAsLong();
      double c0 = reconciles.getAsDouble();
      long t0 = System.nanoTime();
      Thread.sleep(window.toMillis());
      double seconds = (System.nanoTime() - t0) / 1e9;
      return new Rate((requests.getAsLong() - r0) / seconds, (reconciles.getAsDouble() - c0) / seconds);
    }
  }

  /** Polls {@code condition} every 200 ms until it holds; fails after {@code timeout}. */
  static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!quietly(condition)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + what);
      }
      Thread.sleep(200);
    }
  }

  private static boolean quietly(BooleanSupplier condition) {
    try {
      return condition.getAsBoolean();
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** Runs {@code action}, retrying for up to 60 s while the API server is coming back. */
  static void retry(Runnable action) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      try {
        action.run();
        return;
      } catch (RuntimeException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(500);
      }
    }
  }

  /** Checks every 3 s until the fleet converged; returns the last report (converged or not, at the timeout). */
  static ChaosCheck.Report awaitConvergence(KubernetesClient client, ChaosFleet fleet, List<HasMetadata> rendered,
      Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    ChaosCheck.Report report = null;
    while (System.nanoTime() < deadline) {
      try {
        report = ChaosCheck.check(client, fleet, rendered);
        if (report.converged()) {
          return report;
        }
      } catch (RuntimeException e) {
        // The API server may be briefly unavailable; check again.
      }
      Thread.sleep(3_000);
    }
    return report == null ? ChaosCheck.check(client, fleet, rendered) : report;
  }

  /** Appends one line to {@link #SUMMARY}. */
  static void summary(String line) throws IOException {
    Files.createDirectories(SUMMARY.getParent());
    Files.writeString(SUMMARY, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }
}
