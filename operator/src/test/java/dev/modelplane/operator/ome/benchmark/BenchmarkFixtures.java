package dev.modelplane.operator.ome.benchmark;

import dev.modelplane.api.ome.v1beta1.BenchmarkJob;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;

/** BenchmarkJobs written as users write them, and the argv of the Job built from one. */
final class BenchmarkFixtures {
  static final String UID = "0123456789abcdef";

  private BenchmarkFixtures() {
  }

  /** A BenchmarkJob {@code name} in namespace {@code bench} with {@code spec} (YAML, indented by two). */
  static BenchmarkJob benchmark(String name, String spec) {
    BenchmarkJob job = Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: BenchmarkJob
        metadata: {name: %s, namespace: bench, uid: %s}
        spec:
        %s""".formatted(name, UID, spec.stripIndent().lines().map(l -> "  " + l + "\n")
        .reduce("", String::concat)), BenchmarkJob.class);
    return job;
  }

  /** A text-to-text benchmark of a URL endpoint with {@code extra} spec lines, results on a claim. */
  static BenchmarkJob urlBenchmark(String extra) {
    return benchmark("chat", """
        endpoint: {endpoint: {url: "http://llm.example.com:8000/", apiFormat: openai, modelName: llama}}
        task: text-to-text
        maxTimePerIteration: 5
        maxRequestsPerIteration: 100
        outputLocation: {storageUri: "pvc://results/runs"}
        """ + extra);
  }

  static Container benchmarkContainer(Job job) {
    return job.getSpec().getTemplate().getSpec().getInitContainers().stream()
        .filter(c -> BenchmarkJobBuilder.BENCHMARK_CONTAINER.equals(c.getName())).findFirst().orElseThrow();
  }

  /** The genai-bench command line: the container's command, then its args. */
  static List<String> argv(Job job) {
    Container c = benchmarkContainer(job);
    List<String> argv = new ArrayList<>(c.getCommand());
    argv.addAll(c.getArgs());
    return argv;
  }

  /** The values following each occurrence of {@code flag}. */
  static List<String> values(List<String> argv, String flag) {
    List<String> values = new ArrayList<>();
    for (int i = 0; i < argv.size() - 1; i++) {
      if (argv.get(i).equals(flag)) {
        values.add(argv.get(i + 1));
      }
    }
    return values;
  }
}
