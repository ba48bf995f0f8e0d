package dev.modelplane.planner.workload;

import static dev.modelplane.planner.workload.SyntheticWorkloadTest.all;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplayWorkloadTest {
  @TempDir
  Path dir;

  private Path log(String text) throws IOException {
    return Files.writeString(dir.resolve("requests.jsonl"), text);
  }

  private static Path fixture(String name) throws URISyntaxException {
    return Path.of(ReplayWorkloadTest.class.getResource("/benchmark/genai-bench-replay/" + name).toURI());
  }

  @Test
  void aLogWithEveryFieldNameVariant() throws IOException {
    Path file = log("""
        {"timestamp": 100.0, "prompt_tokens": 500, "output_tokens": 50, "prefix_group": "sys-a", "prefix_tokens": 400, \
        "priority": 1, "adapter": "sql", "fairness_id": "alice"}
        {"time": 100.5, "input_tokens": 300, "completion_tokens": 20, "model": "base", "tenant": "bob"}

        {"arrival_time": "101.0", "num_input_tokens": 200, "num_output_tokens": 0, "model": "base"}
        {"created": 101.5, "usage": {"prompt_tokens": 80, "completion_tokens": 9}, "model": "chat-lora", \
        "prefix_group": 7, "prefix_tokens": 80}
        """);
    Workload w = Workloads.replay(file, null, null, 1);
    assertThat(all(w)).containsExactly(
        new PlannedRequest(0, 0, 500, 50, 0, 400, 1, "sql", "alice"),
        new PlannedRequest(1, 500_000_000, 300, 20, -1, 0, 0, null, "bob"),
        new PlannedRequest(2, 1_000_000_000, 200, 1, -1, 0, 0, null, "default-flow"),
        new PlannedRequest(3, 1_500_000_000, 80, 9, 1, 79, 0, "chat-lora", "default-flow"));
    assertThat(w.adapters()).containsExactlyInAnyOrder("sql", "chat-lora");
    assertThat(w.rate()).isCloseTo(2, within(1e-9));
    assertThat(w.describe()).isEqualTo("replay of " + file + ": 4 requests at 2 req/s, prompt mean 270, "
        + "output mean 20, 2 prefix groups, 50% LoRA");
  }

  @Test
  void aLogNamedJsonIsStillALog() throws IOException {
    Path file = Files.writeString(dir.resolve("log.json"), "{\"time\": 0, \"prompt_tokens\": 5, \"output_tokens\": 5}\n"
        + "{\"time\": 2, \"prompt_tokens\": 6, \"output_tokens\": 5}\n");
    assertThat(all(Workloads.replay(file, null, null, 1))).extracting(PlannedRequest::arrivalNanos)
        .containsExactly(0L, 2_000_000_000L);
  }

  @Test
  void rfc3339TimesAndOutOfOrderLines() throws IOException {
    Path file = log("""
        {"timestamp": "2026-11-28T21:00:01.250Z", "prompt_tokens": 2, "output_tokens": 2}
        {"timestamp": "2026-11-28T22:00:00+01:00", "prompt_tokens": 1, "output_tokens": 1}
        {"timestamp": "2026-11-28 21:00:03Z", "prompt_tokens": 3, "output_tokens": 3}
        """);
    assertThat(all(Workloads.replay(file, null, null, 1))).extracting(PlannedRequest::arrivalNanos,
        PlannedRequest::promptTokens).containsExactly(org.assertj.core.groups.Tuple.tuple(0L, 1),
        org.assertj.core.groups.Tuple.tuple(1_250_000_000L, 2), org.assertj.core.groups.Tuple.tuple(3_000_000_000L, 3));
  }

  @Test
  void aRateRescalesTheRecordedTimes() throws IOException {
    Path file = log("{\"time\": 0, \"prompt_tokens\": 5, \"output_tokens\": 5}\n"
        + "{\"time\": 1, \"prompt_tokens\": 6, \"output_tokens\": 5}\n"
        + "{\"time\": 3, \"prompt_tokens\": 7, \"output_tokens\": 5}\n");
    Workload recorded = Workloads.replay(file, null, null, 1);
    assertThat(recorded.rate()).isCloseTo(2 / 3.0, within(1e-9)); // 3 requests per 4.5 s (span plus a mean gap)
    Workload faster = Workloads.replay(file, 4 / 3.0, null, 1);
    assertThat(all(faster)).extracting(PlannedRequest::arrivalNanos).containsExactly(0L, 500_000_000L,
        1_500_000_000L);
    assertThat(all(recorded.atRate(4 / 3.0))).isEqualTo(all(faster));
    assertThat(faster.describe()).contains("3 requests at 1.33 req/s (recorded 0.67 req/s)");
  }

  @Test
  void aDurationCutsOrRepeatsTheReplay() throws IOException {
    Path file = log("{\"time\": 0, \"prompt_tokens\": 5, \"output_tokens\": 5}\n"
        + "{\"time\": 1, \"prompt_tokens\": 6, \"output_tokens\": 5}\n"
        + "{\"time\": 3, \"prompt_tokens\": 7, \"output_tokens\": 5}\n");
    assertThat(all(Workloads.replay(file, null, Duration.ofMillis(1500), 1))).extracting(PlannedRequest::promptTokens)
        .containsExactly(5, 6);
    List<PlannedRequest> repeated = all(Workloads.replay(file, null, Duration.ofSeconds(10), 1));
    assertThat(repeated).extracting(PlannedRequest::arrivalNanos).containsExactly(0L, 1_000_000_000L,
        3_000_000_000L, 4_500_000_000L, 5_500_000_000L, 7_500_000_000L, 9_000_000_000L);
    assertThat(repeated).extracting(PlannedRequest::id).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L);
    assertThat(repeated).extracting(PlannedRequest::promptTokens).containsExactly(5, 6, 7, 5, 6, 7, 5);
    assertThat(all(Workloads.replay(file, 2.0, Duration.ofSeconds(3), 1))).extracting(PlannedRequest::arrivalNanos)
        .containsExactly(0L, 333_333_333L, 1_000_000_000L, 1_500_000_000L, 1_833_333_333L, 2_500_000_000L);
  }

  @Test
  void badLinesNameTheFileAndLine() throws IOException {
    String good = "{\"time\": 0, \"prompt_tokens\": 5, \"output_tokens\": 5}\n";
    assertLogFails(good + "{\"time\": 1, \"prompt_tokens\": 5\n", "line 2: not JSON: Unexpected end-of-input: "
        + "expected close marker for Object");
    assertLogFails(good + "[1, 2]\n", "line 2: expected a JSON object, one request per line");
    assertLogFails(good + "\n{\"prompt_tokens\": 5, \"output_tokens\": 5}\n",
        "line 3: no arrival time (timestamp, time, arrival_time, created)");
    assertLogFails(good + "{\"time\": \"yesterday\", \"prompt_tokens\": 5, \"output_tokens\": 5}\n",
        "line 2: time must be seconds or an RFC 3339 time (2026-11-28T21:00:00.250Z), got \"yesterday\"");
    assertLogFails(good + "{\"time\": 2, \"output_tokens\": 5}\n", "line 2: no prompt token count (prompt_tokens, "
        + "input_tokens, num_input_tokens, usage.prompt_tokens, usage.input_tokens)");
    assertLogFails(good + "{\"time\": 2, \"prompt_tokens\": 5}\n", "line 2: no output token count (output_tokens, "
        + "completion_tokens, num_output_tokens, usage.completion_tokens, usage.output_tokens)");
    assertLogFails(good + "{\"time\": 2, \"prompt_tokens\": 0, \"output_tokens\": 5}\n",
        "line 2: prompt_tokens must be a whole number >= 1, got 0");
    assertLogFails(good + "{\"time\": 2, \"prompt_tokens\": 5, \"output_tokens\": 5.5}\n",
        "line 2: output_tokens must be a whole number >= 0, got 5.5");
    assertLogFails(good + "{\"time\": 2, \"prompt_tokens\": 5, \"output_tokens\": 5, \"prefix_tokens\": 3}\n",
        "line 2: prefix_tokens needs prefix_group, the prefix it counts");
    assertLogFails(good + "{\"time\": 2, \"prompt_tokens\": 5, \"output_tokens\": 5, \"prefix_tokens\": 9, "
        + "\"prefix_group\": 1}\n", "line 2: prefix_tokens (9) is more than the prompt's 5 tokens");
    assertLogFails(good + "{\"time\": 2, \"prompt_tokens\": 5, \"output_tokens\": 5, \"priority\": \"high\"}\n",
        "line 2: priority must be a whole number, got \"high\"");
    assertLogFails(good, "a request log needs at least two requests, to have a rate; found 1");
    assertLogFails(good + good, "every request has the same time, so the log has no rate");
  }

  private void assertLogFails(String text, String message) throws IOException {
    Path file = log(text);
    assertThatThrownBy(() -> Workloads.replay(file, null, null, 1)).hasMessage(file + ": " + message);
  }

  @Test
  void aGenaiBenchResultFileReplaysItsLengthsAtItsMeasuredRate() throws Exception {
    Path file = fixture("N200_50_50_10_text-to-text_num_concurrency_2_time_2s.json");
    Workload w = Workloads.replay(file, null, null, 3);
    List<PlannedRequest> list = all(w);
    assertThat(list).extracting(PlannedRequest::promptTokens).containsExactly(210, 187, 243);
    assertThat(list).extracting(PlannedRequest::outputTokens).containsExactly(48, 55, 51);
    assertThat(list).isEqualTo(all(w));
    assertThat(all(Workloads.replay(file, null, null, 4))).isNotEqualTo(list);
    assertThat(w.rate()).isEqualTo(2);
    assertThat(w.describe()).isEqualTo("replay of " + file + ": 3 recorded request lengths (arrival times were not "
        + "recorded), Poisson 2 req/s, prompt mean 213.33, output mean 51.33");
    assertThat(w.adapters()).isEmpty();
  }

  @Test
  void aGenaiBenchFolderPoolsItsRunsAndLoopsForADuration() throws Exception {
    Path folder = fixture("experiment_metadata.json").getParent();
    Workload w = Workloads.replay(folder, null, null, 3);
    assertThat(w.rate()).isCloseTo(3, within(1e-9)); // 9 requests in 3 s of runs
    assertThat(all(w)).extracting(PlannedRequest::promptTokens).containsExactly(210, 187, 243, 199, 222, 176, 205,
        190);
    Workload tenMinutes = Workloads.replay(folder, 50.0, Duration.ofMinutes(10), 3);
    assertThat(tenMinutes.describe()).isEqualTo("replay of " + folder + ": 8 recorded request lengths (arrival times "
        + "were not recorded), Poisson 50 req/s for 600 s, prompt mean 204, output mean 51.25");
    List<PlannedRequest> hour = all(tenMinutes);
    assertThat(hour.size()).isCloseTo(30_000, within(600));
    assertThat(hour.get(8).promptTokens()).isEqualTo(210);
    assertThat(hour.get(hour.size() - 1).arrivalNanos()).isLessThan(600_000_000_000L);
    assertThat(hour.stream().mapToInt(PlannedRequest::promptTokens).average().orElseThrow())
        .isCloseTo(204, within(0.5));
  }

  @Test
  void genaiBenchErrorsNameTheFile() throws IOException {
    Path empty = Files.createDirectory(dir.resolve("experiment"));
    assertThatThrownBy(() -> Workloads.replay(empty, null, null, 1)).hasMessage(empty + ": no genai-bench result "
        + "files (<scenario>_<task>_num_concurrency_<N>_time_<T>s.json) in the folder");
    Path notJson = Files.writeString(dir.resolve("D1_1_text-to-text_num_concurrency_1_time_1s.json"), "{\n\"a\": }");
    assertThatThrownBy(() -> Workloads.replay(notJson, null, null, 1)).hasMessageStartingWith(notJson
        + ": line 2: not JSON: Unexpected character ('}'");
    Path summary = Files.writeString(dir.resolve("summary.json"), "{\"aggregated_metrics\": {}}");
    assertThatThrownBy(() -> Workloads.replay(summary, null, null, 1)).hasMessage(summary
        + ": no individual_request_metrics list (not a genai-bench result file of one iteration)");
    Path failed = Files.writeString(dir.resolve("failed.json"), "{\"individual_request_metrics\": [{\"error_code\": "
        + "500, \"num_input_tokens\": 5}]}");
    assertThatThrownBy(() -> Workloads.replay(failed, null, null, 1)).hasMessage(failed + ": no successful request "
        + "with num_input_tokens and num_output_tokens in individual_request_metrics");
    Path noRate = Files.writeString(dir.resolve("norate.json"), "{\"individual_request_metrics\": "
        + "[{\"num_input_tokens\": 5, \"num_output_tokens\": 3}]}");
    assertThatThrownBy(() -> Workloads.replay(noRate, null, null, 1)).hasMessage(noRate + ": the result records no "
        + "requests_per_second and run_duration; give a rate");
    assertThat(all(Workloads.replay(noRate, 2.0, null, 1))).hasSize(1);
    Path missing = dir.resolve("nothing.jsonl");
    assertThatThrownBy(() -> Workloads.replay(missing, null, null, 1))
        .hasMessage(missing + ": no such file or folder");
    assertThatThrownBy(() -> Workloads.replay(noRate, -1.0, null, 1))
        .hasMessage(noRate + ": the replay rate must be > 0 requests/s, got -1.0");
  }
}
