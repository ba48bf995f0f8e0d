package dev.modelplane.operator.ome.benchmark;

import static dev.modelplane.operator.ome.benchmark.BenchmarkFixtures.benchmark;
import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.BenchmarkJob;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.WorkloadPolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BenchmarkPolicyTest {
  private static final BenchmarkTarget TARGET = new BenchmarkTarget("http://llama.serving.svc.cluster.local",
      "openai", "none", "llama", new BenchmarkTarget.Tokenizer("/mnt/models/llama",
      Map.of("models.ome.io/clusterbasemodel.llama", "Ready")), List.of());
  private static final String SPEC = """
      endpoint: {inferenceService: {name: llama, namespace: serving}}
      task: text-to-text
      maxTimePerIteration: 5
      maxRequestsPerIteration: 100
      outputLocation: {storageUri: "pvc://results"}
      """;

  private static List<String> fields(String extra) {
    BenchmarkJob job = benchmark("b", SPEC + extra);
    return BenchmarkPolicy.violations(job, TARGET, BenchmarkJobBuilder.build(job, TARGET, OperatorSettings.defaults()))
        .stream().map(WorkloadPolicy.Violation::field).toList();
  }

  @Test
  void theTargetModelsDirectoryForTheTokenizerPasses() {
    assertThat(fields("")).isEmpty();
  }

  @Test
  void aLocalDatasetIsAHostPathAndRefused() {
    assertThat(fields("dataset: {storageUri: \"local:///etc\"}\n")).containsExactly("spec.dataset.storageUri");
  }

  @Test
  void podOverrideHostPathVolumesAndWritableMountsOfTheModelAreRefused() {
    assertThat(fields("""
        podOverride:
          volumes: [{name: host, hostPath: {path: /}}]
          volumeMounts: [{name: host, mountPath: /host}, {name: model, mountPath: /w}]
        """)).containsExactlyInAnyOrder("spec.podOverride.volumes[host]", "spec.podOverride.volumeMounts[/w]");
    // Replacing the operator's model volume by name with another path is the user's hostPath.
    assertThat(fields("""
        podOverride:
          volumes: [{name: model, hostPath: {path: /var/lib/kubelet}}]
        """)).containsExactly("spec.podOverride.volumes[model]");
  }
}
