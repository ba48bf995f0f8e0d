package dev.modelplane.operator.ome.benchmark;

import dev.modelplane.api.ome.v1beta1.BenchmarkJobStatus;
import dev.modelplane.api.ome.v1beta1.BenchmarkState;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/** The one place a BenchmarkJob's status is built: before its Job exists, and from the Job and its pod afterwards. */
final class BenchmarkStatusAggregator {
  private BenchmarkStatusAggregator() {
  }

  /** Waiting to start: what for, in {@code details}. */
  static BenchmarkJobStatus pending(BenchmarkJobStatus old, String details) {
    return new BenchmarkJobStatus(BenchmarkState.Pending, null, null, lastReconcile(old), null, details, null, null,
        null, null, null);
  }

  /** The reason of a refusal, which starts its failure message. */
  static final String POLICY_REFUSED = dev.modelplane.operator.common.WorkloadPolicy.REASON;

  /**
   * The operator refuses to run the spec for the tenant (a target in another namespace without a grant, an endpoint
   * its policy does not let it ask); {@code message} names the field. No Job is created.
   */
  static BenchmarkJobStatus refused(BenchmarkJobStatus old, String message) {
    return invalid(old, POLICY_REFUSED + ": " + message);
  }

  /** Whether {@code status} is a refusal. */
  static boolean isRefusal(BenchmarkJobStatus status) {
    return status.state() == BenchmarkState.Failed && status.failureMessage() != null
        && status.failureMessage().startsWith(POLICY_REFUSED + ": ");
  }

  /** The spec cannot become a Job; nothing runs until it is changed. */
  static BenchmarkJobStatus invalid(BenchmarkJobStatus old, String message) {
    return new BenchmarkJobStatus(BenchmarkState.Failed, null, null, lastReconcile(old), message, null, null, null,
        null, null, null);
  }

  /** The Job was just created. */
  static BenchmarkJobStatus started(BenchmarkJobStatus old, Instant now, String modelName, String apiBase,
      String reportLocation) {
    return new BenchmarkJobStatus(BenchmarkState.Running, time(now), null, lastReconcile(old), null, null, modelName,
        apiBase, reportLocation, null, null);
  }

  /** The state the Job and its pods show; the start facts of {@code old} are kept. */
  static BenchmarkJobStatus observed(BenchmarkJobStatus old, Job job, List<Pod> pods, Instant now) {
    String start = old != null && old.startTime() != null ? old.startTime()
        : job.getStatus() != null && job.getStatus().getStartTime() != null ? job.getStatus().getStartTime()
        : job.getMetadata().getCreationTimestamp();
    String model = old == null ? null : old.modelName();
    String apiBase = old == null ? null : old.apiBase();
    String report = old == null ? null : old.reportLocation();
    JobCondition failed = condition(job, "Failed");
    if (failed != null) {
      String done = old != null && old.state() == BenchmarkState.Failed && old.completionTime() != null
          ? old.completionTime() : firstNonNull(failed.getLastTransitionTime(), time(now));
      return new BenchmarkJobStatus(BenchmarkState.Failed, start, done, lastReconcile(old),
          failureMessage(job, failed, pods), null, model, apiBase, report, null, null);
    }
    if (condition(job, "Complete") != null) {
      String done = firstNonNull(job.getStatus().getCompletionTime(), time(now));
      ContainerStateTerminated summary = terminated(pods, BenchmarkJobBuilder.RESULTS_CONTAINER, false);
      String details = null;
      List<dev.modelplane.api.ome.v1beta1.BenchmarkResult> results = null;
      Integer omitted = null;
      if (summary == null || summary.getMessage() == null || summary.getMessage().isBlank()) {
        details = "the results container left no summary; the full report is at " + report;
      } else {
        try {
          BenchmarkSummary.Decoded decoded = BenchmarkSummary.decode(summary.getMessage());
          results = decoded.results();
          omitted = decoded.omitted() > 0 ? decoded.omitted() : null;
          details = decoded.omitted() > 0 ? decoded.omitted() + " of " + (decoded.omitted()
              + decoded.results().size()) + " iterations did not fit into the summary; see " + report : null;
        } catch (IllegalArgumentException e) {
          details = "the results summary could not be read (" + e.getMessage() + "); the full report is at "
              + report;
        }
      }
      return new BenchmarkJobStatus(BenchmarkState.Completed, start, done, lastReconcile(old), null, details, model,
          apiBase, report, results, omitted);
    }
    return new BenchmarkJobStatus(BenchmarkState.Running, start, null, lastReconcile(old), null, null, model,
        apiBase, report, null, null);
  }

  /** Whether two statuses say the same, the reconcile time aside. */
  static boolean same(BenchmarkJobStatus a, BenchmarkJobStatus b) {
    return a != null && b != null && Objects.equals(stamped(a, null), stamped(b, null));
  }

  /** {@code s} with {@code lastReconcileTime} set. */
  static BenchmarkJobStatus stamped(BenchmarkJobStatus s, String time) {
    return new BenchmarkJobStatus(s.state(), s.startTime(), s.completionTime(), time, s.failureMessage(),
        s.details(), s.modelName(), s.apiBase(), s.reportLocation(), s.results(), s.resultsOmitted());
  }

  static String time(Instant now) {
    return now.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  /** The failing container's termination (the benchmark first), else the Job's own reason. */
  private static String failureMessage(Job job, JobCondition failed, List<Pod> pods) {
    for (String container : List.of(BenchmarkJobBuilder.BENCHMARK_CONTAINER, BenchmarkJobBuilder.RESULTS_CONTAINER)) {
      ContainerStateTerminated t = terminated(pods, container, true);
      if (t != null) {
        String why = t.getMessage() == null || t.getMessage().isBlank() ? "" : ": " + t.getMessage().strip();
        return "container " + container + " failed (exit code " + t.getExitCode()
            + (t.getReason() == null ? "" : ", reason " + t.getReason()) + ")" + why;
      }
    }
    return "Job " + job.getMetadata().getName() + " failed"
        + (failed.getReason() == null ? "" : " (" + failed.getReason() + ")")
        + (failed.getMessage() == null ? "" : ": " + failed.getMessage());
  }

  /** The termination of {@code container} in the newest pod that has one; only failures when {@code failed}. */
  private static ContainerStateTerminated terminated(List<Pod> pods, String container, boolean failed) {
    List<Pod> newestFirst = new ArrayList<>(pods);
    newestFirst.sort(Comparator.comparing((Pod p) -> firstNonNull(p.getMetadata().getCreationTimestamp(), ""))
        .reversed());
    for (Pod p : newestFirst) {
      if (p.getStatus() == null) {
        continue;
      }
      List<ContainerStatus> statuses = new ArrayList<>();
      if (p.getStatus().getInitContainerStatuses() != null) {
        statuses.addAll(p.getStatus().getInitContainerStatuses());
      }
      if (p.getStatus().getContainerStatuses() != null) {
        statuses.addAll(p.getStatus().getContainerStatuses());
      }
      for (ContainerStatus s : statuses) {
        ContainerStateTerminated t = s.getState() == null ? null : s.getState().getTerminated();
        if (container.equals(s.getName()) && t != null && (!failed || !Objects.equals(t.getExitCode(), 0))) {
          return t;
        }
      }
    }
    return null;
  }

  private static JobCondition condition(Job job, String type) {
    if (job.getStatus() == null || job.getStatus().getConditions() == null) {
      return null;
    }
    return job.getStatus().getConditions().stream()
        .filter(c -> type.equals(c.getType()) && "True".equals(c.getStatus())).findFirst().orElse(null);
  }

  private static String lastReconcile(BenchmarkJobStatus old) {
    return old == null ? null : old.lastReconcileTime();
  }

  private static <T> T firstNonNull(T a, T b) {
    return a != null ? a : b;
  }
}
