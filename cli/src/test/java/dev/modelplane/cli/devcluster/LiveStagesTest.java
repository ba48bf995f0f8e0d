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
      """;

  @Test
  void podReadySkipsLivePodsAndTheLiveStageStartsThemUnready() throws Exception {
    List<JsonNode> docs = new ArrayList<>();
    new YAMLMapper().readerFor(JsonNode.class).<JsonNode>readValues(LiveStages.rewrite(DEFAULTS))
        .forEachRemaining(docs::add);
    assertThat(docs).extracting(d -> d.at("/metadata/name").asText())
        .containsExactly("node-initialize", "pod-ready", "modelplane-live-pod-start");
    JsonNode notLive = docs.get(1).at("/spec/selector/matchExpressions/1");
    assertThat(notLive.get("key").asText()).isEqualTo(ServerKind.podSelectorJq());
    assertThat(notLive.get("operator").asText()).isEqualTo("NotIn");
    assertThat(docs.get(1).at("/spec/next/statusTemplate").asText()).isEqualTo("phase: Running\n");
    JsonNode live = docs.get(2);
    assertThat(live.at("/spec/selector/matchExpressions/3/key").asText()).isEqualTo(ServerKind.podSelectorJq());
    assertThat(live.at("/spec/selector/matchExpressions/3/operator").asText()).isEqualTo("In");
    assertThat(live.at("/spec/next/statusTemplate").asText()).contains("status: \"False\"\n  reason: "
        + "ContainersNotReady").contains("PodIPsWith");
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
