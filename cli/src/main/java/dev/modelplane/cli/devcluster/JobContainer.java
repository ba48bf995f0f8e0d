package dev.modelplane.cli.devcluster;

import io.fabric8.kubernetes.api.model.Container;
import java.nio.file.Path;
import java.time.Instant;

/** One container (or init container) of a job pod and its state. Touched only on the pod runner's thread. */
final class JobContainer {
  /** The container's state, as a container status says it. */
  enum Phase { WAITING, RUNNING, TERMINATED }

  final Container spec;
  final boolean init;
  final JobPods.Program program;
  Phase phase = Phase.WAITING;
  String waitingReason;
  String waitingMessage;
  Instant startedAt;
  Instant finishedAt;
  int exitCode;
  String reason;
  String message;
  Process process;
  Path log;
  boolean stopping;

  JobContainer(Container spec, boolean init) {
    this.spec = spec;
    this.init = init;
    this.program = JobPods.Program.of(spec);
    this.waitingReason = "PodInitializing";
  }

  String name() {
    return spec.getName();
  }

  /** Whether it ended with exit code 0. */
  boolean succeeded() {
    return phase == Phase.TERMINATED && exitCode == 0;
  }

  void waiting(String why, String detail) {
    phase = Phase.WAITING;
    waitingReason = why;
    waitingMessage = detail;
  }

  void running(Process p, Instant now) {
    process = p;
    phase = Phase.RUNNING;
    startedAt = now;
  }

  /** Ends it: {@code Completed} for exit 0, {@code Error} otherwise (or {@code why} when given). */
  void terminated(int code, String why, String text, Instant now) {
    phase = Phase.TERMINATED;
    exitCode = code;
    reason = why != null ? why : code == 0 ? "Completed" : "Error";
    message = text;
    startedAt = startedAt == null ? now : startedAt;
    finishedAt = now;
    process = null;
  }
}
