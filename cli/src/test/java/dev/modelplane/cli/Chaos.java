package dev.modelplane.cli;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import org.awaitility.core.ConditionTimeoutException;

/** What the chaos tests share: retries, the wait for convergence, rates over a window, the summary file. */
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

  /** Runs {@code action}, retrying for up to 60 s while the API server is coming back. */
  static void retry(Runnable action) {
    await("the API server to take a request").atMost(Duration.ofSeconds(60)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
          action.run();
          return true;
        });
  }

  /** Checks every 3 s until the fleet converged; returns the last report (converged or not, at the timeout). */
  static ChaosCheck.Report awaitConvergence(KubernetesClient client, ChaosFleet fleet, List<HasMetadata> rendered,
      Duration timeout) {
    AtomicReference<ChaosCheck.Report> last = new AtomicReference<>();
    try {
      // The API server may be briefly unavailable: a check that throws is made again.
      await("the fleet to converge").atMost(timeout).pollDelay(Duration.ZERO).pollInterval(Duration.ofSeconds(3))
          .ignoreExceptions().until(() -> {
            last.set(ChaosCheck.check(client, fleet, rendered));
            return last.get().converged();
          });
    } catch (ConditionTimeoutException e) {
      // The caller reports the last check.
    }
    return last.get() == null ? ChaosCheck.check(client, fleet, rendered) : last.get();
  }

  /** Appends one line to {@link #SUMMARY}. */
  static void summary(String line) throws IOException {
    Files.createDirectories(SUMMARY.getParent());
    Files.writeString(SUMMARY, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }
}
