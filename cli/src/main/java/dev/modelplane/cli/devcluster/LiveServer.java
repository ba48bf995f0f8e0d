package dev.modelplane.cli.devcluster;

import dev.modelplane.common.time.Backoff;
import java.time.Duration;
import java.time.Instant;

/**
 * One live model-server container: its simulator process and what the pod's status says about it. Touched only on
 * the pod runner's thread.
 */
final class LiveServer {
  /** What a container status reports: running (ready or not) or waiting to restart after a crash. */
  enum State { RUNNING, WAITING }

  /** The last time the process ended on its own. */
  record Termination(int exitCode, Instant startedAt, Instant finishedAt) {
  }

  private static final Backoff RESTART_BACKOFF = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30));

  final SimulatorPlan plan;
  Process process;
  State state = State.WAITING;
  boolean ready;
  int restarts;
  Instant startedAt;
  Instant nextStart = Instant.EPOCH;
  Termination lastTermination;
  boolean stopping;

  LiveServer(SimulatorPlan plan) {
    this.plan = plan;
  }

  /** Records a crash and when to try again: 1 s, doubling up to 30 s (the kubelet's backoff, shortened). */
  void crashed(int exitCode, Instant now) {
    lastTermination = new Termination(exitCode, startedAt == null ? now : startedAt, now);
    restarts++;
    ready = false;
    state = State.WAITING;
    process = null;
    nextStart = now.plus(RESTART_BACKOFF.delay(restarts));
  }

  /**
   * Ends the process without waiting: SIGTERM now, SIGKILL if it still runs after {@code grace}. Returns when the
   * process has exited (for whoever must wait).
   */
  java.util.concurrent.CompletableFuture<Process> stop(Duration grace) {
    stopping = true;
    Process p = process;
    if (p == null) {
      return java.util.concurrent.CompletableFuture.completedFuture(null);
    }
    p.destroy();
    p.onExit().orTimeout(grace.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)
        .exceptionally(timeout -> {
          p.destroyForcibly();
          return p;
        });
    return p.onExit();
  }
}
