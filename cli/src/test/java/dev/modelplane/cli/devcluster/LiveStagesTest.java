package dev.modelplane.cli.devcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** kwok's stages with live pods taken out of kwok's readiness. */
class LiveStagesTest {
  private static final String DEFAULTS = """
      ---
      apiVersion: kwok.x-k8s.io/v1alpha1
      kind: Stage
      metadata:
        name: node-initialize
      spec:
        resourceRef: {apiGroup: v1, kind: Node}
      ---
      apiVersion: kwok.x-k8s.io/v1alpha1
      kind: Stage
      metadata:
        name: pod-ready
      spec:
        resourceRef: {apiGroup: v1, kind: Pod}
        selector:
          matchExpressions:
          - key: '.metadata.deletionTimestamp'
            operator: 'DoesNotExist'
        next:
          statusTemplate: |
            phase: Running
      ---
      apiVersion: kwok.x-k8s.io/v1alpha1
      kind: Stage
      metadata:
        name: pod-complete
      spec:
        resourceRef: {apiGroup: v1, kind: Pod}
        selector:
          matchExpressions:
          - key: '.metadata.ownerReferences.[].kind'
            operator: 'In'
            values: ['Job']
        next:
          statusTemplate: |
            phase: Succeeded
      """;

  @Test
  void podReadySkipsLiveAndJobPodsAndTheLiveStageStartsThemUnready() throws Exception {
    List<JsonNode> docs = stages(DEFAULTS);
    assertThat(docs).extracting(d -> d.at("/metadata/name").asText()).containsExactly("node-initialize",
        "pod-ready", "pod-complete", "modelplane-live-pod-start", "modelplane-job-pod-start");
    JsonNode notLive = docs.get(1).at("/spec/selector/matchExpressions/1");
    assertThat(notLive.get("key").asText()).isEqualTo(ServerKind.podSelectorJq());
    assertThat(notLive.get("operator").asText()).isEqualTo("NotIn");
    JsonNode notJob = docs.get(1).at("/spec/selector/matchExpressions/2");
    assertThat(notJob.get("key").asText()).isEqualTo(JobPods.podSelectorJq());
    assertThat(notJob.get("operator").asText()).isEqualTo("NotIn");
    assertThat(docs.get(1).at("/spec/next/statusTemplate").asText()).isEqualTo("phase: Running\n");
    JsonNode live = docs.get(3);
    assertThat(live.at("/spec/selector/matchExpressions/3/key").asText()).isEqualTo(ServerKind.podSelectorJq());
    assertThat(live.at("/spec/selector/matchExpressions/3/operator").asText()).isEqualTo("In");
    assertThat(live.at("/spec/selector/matchExpressions/4/key").asText()).isEqualTo(JobPods.podSelectorJq());
    assertThat(live.at("/spec/selector/matchExpressions/4/operator").asText()).isEqualTo("NotIn");
    assertThat(live.at("/spec/next/statusTemplate").asText()).contains("status: \"False\"\n  reason: "
        + "ContainersNotReady").contains("PodIPsWith");
  }

  @Test
  void kwokNeverCompletesJobPodsAndTheJobStageLeavesThemPendingWithAnAddress() throws Exception {
    List<JsonNode> docs = stages(DEFAULTS);
    JsonNode complete = docs.get(2).at("/spec/selector/matchExpressions");
    assertThat(complete).hasSize(2);
    assertThat(complete.get(1).get("key").asText()).isEqualTo(JobPods.podSelectorJq());
    assertThat(complete.get(1).get("operator").asText()).isEqualTo("NotIn");
    assertThat(docs.get(2).at("/spec/next/statusTemplate").asText()).isEqualTo("phase: Succeeded\n");
    JsonNode job = docs.get(4);
    assertThat(job.at("/spec/selector/matchExpressions/2/key").asText()).isEqualTo(".status.podIP");
    assertThat(job.at("/spec/selector/matchExpressions/2/operator").asText()).isEqualTo("DoesNotExist");
    assertThat(job.at("/spec/selector/matchExpressions/3/key").asText()).isEqualTo(JobPods.podSelectorJq());
    assertThat(job.at("/spec/selector/matchExpressions/3/operator").asText()).isEqualTo("In");
    assertThat(job.at("/spec/next/statusTemplate").asText()).contains("phase: Pending").contains("PodIPsWith")
        .contains("reason: PodInitializing").doesNotContain("phase: Running");
  }

  @Test
  void theJobSelectorTestsInitContainersAndContainersForGenaiBenchsRepository() {
    assertThat(JobPods.podSelectorJq()).isEqualTo("[(.spec.initContainers // [])[], (.spec.containers // [])[] "
        + "| select(.image // \"\" | test(\"(^|/)(genai-bench)([:@]|$)\"))] | length > 0");
  }

  private static List<JsonNode> stages(String yaml) throws Exception {
    List<JsonNode> docs = new ArrayList<>();
    new YAMLMapper().readerFor(JsonNode.class).<JsonNode>readValues(LiveStages.rewrite(yaml))
        .forEachRemaining(docs::add);
    return docs;
  }

  @Test
  void theSelectorTestsImagesWithOneRegexAndTheModelplaneImageByItsFirstArgument() {
    assertThat(ServerKind.podSelectorJq()).startsWith("[.spec.containers[] | select((.image // \"\" | test(\"(^|/)(")
        .contains("vllm-openai|")
        .contains("|sglang|llama\\\\.cpp|llmkube-llama-vulkan|llmkube-llama-rocm|text-generation-inference|"
            + "llm-d-inference-sim)")
        .endsWith("and ((.args // [])[0:1] == [\"simulator\"])))] | length > 0");
  }

  @Test
  void stagesWithoutPodReadyAreRefused() {
    assertThatThrownBy(() -> LiveStages.rewrite("apiVersion: v1\nkind: Stage\nmetadata: {name: x}\n"))
        .hasMessageContaining("no \"pod-ready\" stage");
  }
}
