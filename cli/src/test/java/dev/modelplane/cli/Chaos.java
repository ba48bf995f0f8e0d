package dev.modelplane.cli;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
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
   * Requests and reconciles per second over a window, sampled each second.
   *
   * <p>{@code sustainedRequestsPerSecond} leaves out the two busiest seconds. One periodic re-check of one object
   * (a burst of a dozen requests that may straddle a second boundary) then does not count, while a loop, which
   * repeats, still shows in the seconds that remain.
   *
   * @param requestsPerSecond API requests per second over the whole window
   * @param sustainedRequestsPerSecond API requests per second without the two busiest seconds
   * @param reconcilesPerSecond reconciles started per second
   */
  record Rate(double requestsPerSecond, double sustainedRequestsPerSecond, double reconcilesPerSecond) {
    static Rate measure(LongSupplier requests, DoubleSupplier reconciles, Duration window)
        throws InterruptedException {
      long r0 = requests.getAsLong();
      double c0 = reconciles.getAsDouble();
      long t0 = System.nanoTime();
      long seconds = Math.max(3, window.toSeconds());
      List<Long> perSecond = new ArrayList<>();
      long previous = r0;
      for (long i = 1; i <= seconds; i++) {
        long due = t0 + i * 1_000_000_000L;
        Thread.sleep(Math.max(0, (due - System.nanoTime()) / 1_000_000));
        long now = requests.getAsLong();
        perSecond.add(now - previous);
        previous = now;
      }
      double elapsed = (System.nanoTime() - t0) / 1e9;
      long trimmed = perSecond.stream().sorted().limit(perSecond.size() - 2).mapToLong(Long::longValue).sum();
      return new Rate((previous - r0) / elapsed, trimmed / (double) (perSecond.size() - 2),
          (reconciles.getAsDouble() - c0) / elapsed);
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
