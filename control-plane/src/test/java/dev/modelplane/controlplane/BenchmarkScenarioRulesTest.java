package dev.modelplane.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The traffic-scenario rules of a BenchmarkJob on the real apiserver: every genai-bench scenario form is accepted for
 * its task, and a wrong or malformed entry is refused with a message naming that entry and the forms the task takes.
 */
@WithControlPlane
class BenchmarkScenarioRulesTest {
  private static final String TEXT = "use D(in,out), N(in_mean,in_sd)/(out_mean,out_sd), "
      + "U(in_min,in_max)/(out_min,out_max), U(in_max,out_max) or dataset";
  private static final String IMAGE = "use I(width,height), I(width,height,images) or dataset";

  static Stream<Arguments> accepted() {
    return Stream.of(
        Arguments.of("text-to-text", List.of("D(100,100)", "N(480,240)/(300,150)", "U(50,500)/(20,200)",
            "U(1000,200)", "dataset")),
        Arguments.of("text-to-embeddings", List.of("E(64)", "E(1024)", "dataset")),
        Arguments.of("image-to-text", List.of("I(512,512)", "I(1024,512,2)", "dataset")),
        Arguments.of("image-to-embeddings", List.of("I(512,512)", "I(2048,2048,4)", "dataset")),
        Arguments.of("text-to-rerank", List.of("R(1024,100)", "dataset")),
        Arguments.of("text-to-speech", List.of("A(100)", "dataset")));
  }

  /** Task, scenarios (the bad one not first), and the message the user sees. */
  static Stream<Arguments> refused() {
    return Stream.of(
        Arguments.of("text-to-text", List.of("D(100,100)", "D(100)"),
            "trafficScenarios entry \"D(100)\" is not a text-to-text scenario: " + TEXT),
        Arguments.of("text-to-text", List.of("N(480,240)"),
            "trafficScenarios entry \"N(480,240)\" is not a text-to-text scenario: " + TEXT),
        Arguments.of("text-to-text", List.of("U(1,2)/(3)"),
            "trafficScenarios entry \"U(1,2)/(3)\" is not a text-to-text scenario: " + TEXT),
        Arguments.of("text-to-text", List.of("E(64)"),
            "trafficScenarios entry \"E(64)\" is not a text-to-text scenario: " + TEXT),
        Arguments.of("text-to-text", List.of("d(100,100)"),
            "trafficScenarios entry \"d(100,100)\" is not a text-to-text scenario: " + TEXT),
        Arguments.of("text-to-embeddings", List.of("E(64)", "E(64,64)"),
            "trafficScenarios entry \"E(64,64)\" is not a text-to-embeddings scenario: use E(tokens) or dataset"),
        Arguments.of("text-to-embeddings", List.of("D(100,100)"),
            "trafficScenarios entry \"D(100,100)\" is not a text-to-embeddings scenario: use E(tokens) or dataset"),
        Arguments.of("image-to-text", List.of("I(512)"),
            "trafficScenarios entry \"I(512)\" is not an image-to-text scenario: " + IMAGE),
        Arguments.of("image-to-embeddings", List.of("I(512,512)", "I(1,2,3,4)"),
            "trafficScenarios entry \"I(1,2,3,4)\" is not an image-to-embeddings scenario: " + IMAGE),
        Arguments.of("text-to-rerank", List.of("R(1024)"),
            "trafficScenarios entry \"R(1024)\" is not a text-to-rerank scenario: use R(document_tokens,query_tokens)"
                + " or dataset"),
        Arguments.of("text-to-speech", List.of("A(100)", "A(1,2)"),
            "trafficScenarios entry \"A(1,2)\" is not a text-to-speech scenario: use A(characters) or dataset"),
        Arguments.of("text-to-speech", List.of("D(100,100)"),
            "trafficScenarios entry \"D(100,100)\" is not a text-to-speech scenario: use A(characters) or dataset"));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("accepted")
  void everyFormOfTheTaskIsAccepted(String task, List<String> scenarios, KubernetesClient client) {
    GenericKubernetesResource created = client.resource(benchmark(task, scenarios)).create();
    assertThat(created.getMetadata().getUid()).isNotBlank();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("refused")
  void aBadEntryIsRefusedByName(String task, List<String> scenarios, String message, KubernetesClient client) {
    assertThatThrownBy(() -> client.resource(benchmark(task, scenarios)).create())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> {
          assertThat(((KubernetesClientException) e).getCode()).isEqualTo(422);
          assertThat(e.getMessage()).contains("spec: Invalid value", message);
        });
  }

  private static GenericKubernetesResource benchmark(String task, List<String> scenarios) {
    String dataset = task.startsWith("image-") ? "  dataset: {storageUri: hf://example/images}\n" : "";
    return Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: BenchmarkJob
        metadata: {generateName: scenarios-}
        spec:
          endpoint: {endpoint: {url: "http://llm.example.com", apiFormat: openai, modelName: m}}
          task: %s
          trafficScenarios: [%s]
        %s  maxTimePerIteration: 1
          maxRequestsPerIteration: 10
          outputLocation: {storageUri: "pvc://results/x"}
        """.formatted(task, String.join(", ", scenarios.stream().map(s -> "\"" + s + "\"").toList()), dataset),
        GenericKubernetesResource.class);
  }
}
