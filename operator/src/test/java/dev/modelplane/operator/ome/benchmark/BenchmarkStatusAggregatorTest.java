package dev.modelplane.operator.ome.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.BenchmarkJobStatus;
import dev.modelplane.api.ome.v1beta1.BenchmarkResult;
import dev.modelplane.api.ome.v1beta1.BenchmarkState;
import dev.modelplane.api.ome.v1beta1.LatencyPercentiles;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchmarkStatusAggregatorTest {
  private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");
  private static final BenchmarkJobStatus STARTED = BenchmarkStatusAggregator.started(null, Instant.parse(
      "2026-11-26T11:00:00Z"), "llama", "http://llm", "pvc://results/run");

  private static Job job(String status) {
    return Serialization.unmarshal("""
        apiVersion: batch/v1
        kind: Job
        metadata: {name: chat, namespace: bench, uid: job-uid, creationTimestamp: "2026-11-26T11:00:00Z"}
        spec: {template: {spec: {containers: [{name: results, image: x}]}}}
        status:
        """ + status, Job.class);
  }

  private static Pod pod(String initState, String mainState) {
    return Serialization.unmarshal("""
        apiVersion: v1
        kind: Pod
        metadata: {name: chat-x, creationTimestamp: "2026-11-26T11:00:01Z"}
        spec: {containers: [{name: results, image: x}]}
        status:
          initContainerStatuses: [{name: benchmark, image: g, imageID: "", ready: false, restartCount: 0,
            state: %s}]
          containerStatuses: [{name: results, image: x, imageID: "", ready: false, restartCount: 0, state: %s}]
        """.formatted(initState, mainState), Pod.class);
  }

  @Test
  void aJobWithoutConditionsIsRunningAndKeepsWhatTheStartRecorded() {
    BenchmarkJobStatus s = BenchmarkStatusAggregator.observed(STARTED, job("  active: 1\n"), List.of(), NOW);
    assertThat(s.state()).isEqualTo(BenchmarkState.Running);
    assertThat(s.startTime()).isEqualTo("2026-11-26T11:00:00Z");
    assertThat(s.modelName()).isEqualTo("llama");
    assertThat(s.apiBase()).isEqualTo("http://llm");
    assertThat(s.reportLocation()).isEqualTo("pvc://results/run");
    assertThat(BenchmarkStatusAggregator.same(s, STARTED)).isTrue();
  }

  @Test
  void aFailedJobIsFailedWithTheFailingContainersMessageReasonAndExitCode() {
    Job failed = job("""
          conditions: [{type: Failed, status: "True", reason: BackoffLimitExceeded,
            message: Job has reached the specified backoff limit, lastTransitionTime: "2026-11-26T11:30:00Z"}]
        """);
    Pod pod = pod("{terminated: {exitCode: 2, reason: Error, message: \"Error: No such option: --bogus\\n\"}}",
        "{waiting: {reason: PodInitializing}}");
    BenchmarkJobStatus s = BenchmarkStatusAggregator.observed(STARTED, failed, List.of(pod), NOW);
    assertThat(s.state()).isEqualTo(BenchmarkState.Failed);
    assertThat(s.failureMessage()).isEqualTo("container benchmark failed (exit code 2, reason Error): Error: No such "
        + "option: --bogus");
    assertThat(s.completionTime()).isEqualTo("2026-11-26T11:30:00Z");

    Pod summaryFailed = pod("{terminated: {exitCode: 0, reason: Completed}}",
        "{terminated: {exitCode: 1, reason: Error, message: no genai-bench results in /benchmark-results/x}}");
    assertThat(BenchmarkStatusAggregator.observed(STARTED, failed, List.of(summaryFailed), NOW).failureMessage())
        .isEqualTo("container results failed (exit code 1, reason Error): no genai-bench results in "
            + "/benchmark-results/x");
    assertThat(BenchmarkStatusAggregator.observed(STARTED, failed, List.of(), NOW).failureMessage())
        .isEqualTo("Job chat failed (BackoffLimitExceeded): Job has reached the specified backoff limit");
  }

  @Test
  void aCompleteJobIsCompletedWithTheSummaryFromTheResultsContainer() {
    BenchmarkResult row = new BenchmarkResult("D(100,100)", 4, null, 100, 0.0, 30.0, 3.3, 330.0, 330.0,
        new LatencyPercentiles(0.1, 0.09, 0.2, 0.3), new LatencyPercentiles(1.0, 0.9, 1.5, 2.0));
    String message = BenchmarkSummary.encode(List.of(row), BenchmarkSummary.TERMINATION_MESSAGE_BYTES);
    Job complete = job("""
          completionTime: "2026-11-26T11:40:00Z"
          conditions: [{type: Complete, status: "True"}]
        """);
    Pod pod = pod("{terminated: {exitCode: 0, reason: Completed}}",
        "{terminated: {exitCode: 0, reason: Completed, message: " + Serialization.asJson(message) + "}}");
    BenchmarkJobStatus s = BenchmarkStatusAggregator.observed(STARTED, complete, List.of(pod), NOW);
    assertThat(s.state()).isEqualTo(BenchmarkState.Completed);
    assertThat(s.completionTime()).isEqualTo("2026-11-26T11:40:00Z");
    assertThat(s.results()).containsExactly(row);
    assertThat(s.resultsOmitted()).isNull();
    assertThat(s.details()).isNull();
    assertThat(s.failureMessage()).isNull();

    Pod garbage = pod("{terminated: {exitCode: 0}}", "{terminated: {exitCode: 0, message: \"not json\"}}");
    BenchmarkJobStatus unreadable = BenchmarkStatusAggregator.observed(STARTED, complete, List.of(garbage), NOW);
    assertThat(unreadable.state()).isEqualTo(BenchmarkState.Completed);
    assertThat(unreadable.results()).isNull();
    assertThat(unreadable.details()).startsWith("the results summary could not be read (")
        .endsWith("); the full report is at pvc://results/run");
  }

  @Test
  void pendingSaysWhatItWaitsForAndOnlyTheReconcileTimeDoesNotCount() {
    BenchmarkJobStatus a = BenchmarkStatusAggregator.stamped(
        BenchmarkStatusAggregator.pending(null, "waiting for x"), "t1");
    BenchmarkJobStatus b = BenchmarkStatusAggregator.stamped(
        BenchmarkStatusAggregator.pending(a, "waiting for x"), "t2");
    assertThat(a.state()).isEqualTo(BenchmarkState.Pending);
    assertThat(BenchmarkStatusAggregator.same(a, b)).isTrue();
    assertThat(BenchmarkStatusAggregator.same(a, BenchmarkStatusAggregator.pending(a, "waiting for y"))).isFalse();
    assertThat(BenchmarkStatusAggregator.same(null, a)).isFalse();
  }
}
