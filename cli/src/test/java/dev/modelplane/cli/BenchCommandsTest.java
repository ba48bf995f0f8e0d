package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.api.ome.v1beta1.BenchmarkResult;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.operator.ome.benchmark.BenchmarkSummary;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench summarize} on a real genai-bench folder, and {@code bench report} / {@code status} on BenchmarkJobs. */
@WithControlPlane
class BenchCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String OME = "ome.io/v1beta1";

  static Path fixture() throws Exception {
    return Path.of(BenchCommandsTest.class.getResource("/benchmark/genai-bench-0.0.5").toURI());
  }

  @Test
  void summarizeWritesTheCompactSummaryAndPrintsTableAndJson(@TempDir Path tmp) throws Exception {
    Path log = tmp.resolve("termination-log");
    MainTest.Result r = MainTest.run("bench", "summarize", "--experiment-dir", fixture().toString(),
        "--termination-log", log.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("(4 iterations)", "SCENARIO", "CONCURRENCY", "REQUESTS", "ERRORS", "REQ/S",
        "OUTPUT TOK/S", "TTFT MS P50/P90/P99", "E2E S P50/P90/P99", "Results (JSON):",
        "Summary of 4 of 4 iterations written to " + log);
    assertThat(r.out()).containsPattern("dataset\\s+16\\s+419\\s+0%\\s+18.9\\s+951\\s+84.3/364/1556\\s+0.734/1.32/2.3");
    String json = r.out().substring(r.out().indexOf("Results (JSON):") + 15, r.out().indexOf("Summary of"));
    JsonNode rows = JSON.readTree(json);
    assertThat(rows).hasSize(4);
    assertThat(rows.get(3).path("concurrency").asInt()).isEqualTo(128);
    assertThat(rows.get(3).at("/ttftSeconds/p99").asDouble()).isEqualTo(3.2568436535079677);
    BenchmarkSummary.Decoded decoded = BenchmarkSummary.decode(Files.readString(log));
    assertThat(decoded.omitted()).isZero();
    assertThat(decoded.results()).extracting(BenchmarkResult::concurrency).containsExactly(16, 32, 64, 128);
  }

  @Test
  void summarizeFailsNamingTheFolderWhenItHoldsNoResults(@TempDir Path tmp) throws Exception {
    Path log = tmp.resolve("termination-log");
    Path empty = Files.createDirectory(tmp.resolve("empty"));
    MainTest.Result none = MainTest.run("bench", "summarize", "--experiment-dir", empty.toString(),
        "--termination-log", log.toString());
    assertThat(none.code()).isEqualTo(1);
    assertThat(none.err()).contains("bench summarize: no benchmark results in " + empty + ": " + empty
        + ": no experiment_metadata.json");
    Files.copy(fixture().resolve("experiment_metadata.json"), empty.resolve("experiment_metadata.json"));
    MainTest.Result started = MainTest.run("bench", "summarize", "--experiment-dir", empty.toString(),
        "--termination-log", log.toString());
    assertThat(started.code()).isEqualTo(1);
    assertThat(started.err()).contains("no benchmark results in " + empty + ": genai-bench finished no iteration");
    assertThat(log).doesNotExist();
    MainTest.Result unwritable = MainTest.run("bench", "summarize", "--experiment-dir", fixture().toString(),
        "--termination-log", tmp.resolve("no/such/dir/log").toString());
    assertThat(unwritable.code()).isEqualTo(1);
    assertThat(unwritable.err()).contains("cannot write the summary to " + tmp.resolve("no/such/dir/log"),
        "choose another file with --termination-log");
    MainTest.Result missing = MainTest.run("bench", "summarize");
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("Missing required option: '--experiment-dir=DIR'");
    for (String command : List.of("bench", "bench summarize", "bench report")) {
      MainTest.Result help = MainTest.run((command + " --help").split(" "));
      assertThat(help.code()).as(command).isZero();
      assertThat(help.out()).startsWith("Usage: modelplane " + command);
    }
  }

  @Test
  void reportShowsTheResultsAndPlotsThemOnlyWhenCompleted(KubeTest test, @TempDir Path tmp) throws Exception {
    List<BenchmarkResult> rows = BenchmarkSummary.read(fixture());
    Map<String, Object> completed = new LinkedHashMap<>();
    completed.put("state", "Completed");
    completed.put("startTime", "2026-11-26T10:00:00Z");
    completed.put("completionTime", "2026-11-26T10:05:00Z");
    completed.put("modelName", "meta-llama/Llama-3.1-8B-Instruct");
    completed.put("apiBase", "http://router.modelplane-system:8080/inference-pools/default/chat");
    completed.put("reportLocation", "pvc://benchmark-results/chat/run-1");
    completed.put("results", JSON.convertValue(rows, List.class));
    completed.put("resultsOmitted", 2);
    benchmarkJob(test, "done", completed);
    benchmarkJob(test, "waiting", Map.of("state", "Pending", "details", "waiting for InferenceService chat to be "
        + "ready"));
    benchmarkJob(test, "broken", Map.of("state", "Failed", "failureMessage", "container benchmark exited with 1: "
        + "ConnectionError: http://chat:8080", "completionTime", "2026-11-26T10:01:00Z"));

    Path plots = tmp.resolve("plots");
    MainTest.Result report = run(test, "bench", "report", "done", "--output-dir", plots.toString());
    assertThat(report.code()).as(report.err()).isZero();
    assertThat(report.out()).contains("BenchmarkJob " + test.namespace() + "/done", "State:      Completed",
        "Model:      meta-llama/Llama-3.1-8B-Instruct",
        "API base:   http://router.modelplane-system:8080/inference-pools/default/chat",
        "Report:     pvc://benchmark-results/chat/run-1", "TTFT MS P50/P90/P99",
        "2 more iterations are only in the full report at pvc://benchmark-results/chat/run-1.",
        "Plots (8 files) written to " + plots, "throughput-output-tokens.svg", "ttft-dataset.png");
    assertThat(report.out()).containsPattern("dataset\\s+128\\s+428\\s+0%\\s+67.9\\s+3470\\s+333/1500/3257");
    assertThat(plots.resolve("e2e-dataset.svg")).exists();
    assertThat(plots.resolve("throughput-requests.png")).exists();

    MainTest.Result json = run(test, "bench", "report", "done", "-o", "json", "--output-dir", plots.toString());
    assertThat(json.code()).isZero();
    assertThat(JSON.readTree(json.out()).at("/results/0/ttftSeconds/p50").asDouble()).isEqualTo(0.08432074799929978);

    Path none = tmp.resolve("none");
    MainTest.Result pending = run(test, "bench", "report", "waiting", "--output-dir", none.toString());
    assertThat(pending.code()).isEqualTo(3);
    assertThat(pending.out()).contains("State:      Pending",
        "No results yet: the benchmark is Pending (waiting for InferenceService chat to be ready).");
    MainTest.Result failed = run(test, "bench", "report", "broken", "--output-dir", none.toString());
    assertThat(failed.code()).isEqualTo(1);
    assertThat(failed.out()).contains("State:      Failed", "Failure:    container benchmark exited with 1");
    assertThat(failed.err()).contains("bench report: BenchmarkJob " + test.namespace() + "/broken failed: "
        + "container benchmark exited with 1: ConnectionError: http://chat:8080");
    assertThat(none).doesNotExist();

    MainTest.Result unknown = run(test, "bench", "report", "nope");
    assertThat(unknown.code()).isEqualTo(1);
    assertThat(unknown.err()).contains("bench report: no BenchmarkJob nope in namespace " + test.namespace());
    MainTest.Result format = run(test, "bench", "report", "done", "-o", "yaml");
    assertThat(format.code()).isEqualTo(2);
    assertThat(format.err()).contains("-o must be table or json, not 'yaml'");

    MainTest.Result status = run(test, "status", "done");
    assertThat(status.code()).as(status.err()).isZero();
    assertThat(status.out()).contains("benchmarkjob.ome " + test.namespace() + "/done", "Status:     Completed",
        "ModelName:  meta-llama/Llama-3.1-8B-Instruct", "Report:     pvc://benchmark-results/chat/run-1",
        "  Results:", "2 more in the full report");
    assertThat(status.out()).containsPattern("    dataset\\s+16\\s+419\\s+0%");
    assertThat(run(test, "status", "broken").out()).contains("Failure:    container benchmark exited with 1");
  }

  private static MainTest.Result run(KubeTest test, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--kubeconfig", test.controlPlane().kubeconfig().toString(), "-n", test.namespace()));
    return MainTest.run(all.toArray(String[]::new));
  }

  /** A BenchmarkJob as in the samples, with {@code status} as the operator would write it. */
  private static void benchmarkJob(KubeTest test, String name, Map<String, Object> status) {
    var jobs = test.client().genericKubernetesResources(OME, "BenchmarkJob").inNamespace(test.namespace());
    GenericKubernetesResource job = jobs.resource(new GenericKubernetesResourceBuilder().withApiVersion(OME)
        .withKind("BenchmarkJob").withNewMetadata().withName(name).endMetadata()
        .addToAdditionalProperties("spec", Map.of(
            "endpoint", Map.of("inferenceService", Map.of("name", "chat", "namespace", test.namespace())),
            "task", "text-to-text", "trafficScenarios", List.of("D(100,100)"), "maxTimePerIteration", 5,
            "maxRequestsPerIteration", 500,
            "outputLocation", Map.of("storageUri", "pvc://benchmark-results/chat")))
        .build()).create();
    job.getAdditionalProperties().put("status", status);
    jobs.resource(job).updateStatus();
  }
}
