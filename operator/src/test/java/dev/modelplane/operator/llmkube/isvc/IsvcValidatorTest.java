package dev.modelplane.operator.llmkube.isvc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.operator.TestObjects;
import dev.modelplane.operator.common.FieldProblem;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IsvcValidatorTest {
  private static final String MODEL = "source: pvc://store/m.gguf\n";
  private static final ClusterFacts TWO_GPUS = new ClusterFacts(Map.of("nvidia.com/gpu", 2L),
      Map.of("llmkube-normal", 10000, "llmkube-high", 100000));

  private static List<FieldProblem> problems(String spec, String model, ClusterFacts facts) {
    return IsvcValidator.validate(TestObjects.isvc(spec), TestObjects.model(model), facts);
  }

  private static List<FieldProblem> problems(String spec) {
    return problems(spec, MODEL, ClusterFacts.UNKNOWN);
  }

  @Test
  void aPlainServiceHasNoProblems() {
    assertThat(problems("modelRef: m", MODEL, TWO_GPUS)).isEmpty();
  }

  @Test
  void speculativeDecodingWithoutAModel() {
    assertThat(problems("modelRef: m\nruntime: vllm\nvllmConfig: {speculative: {enabled: true}}"))
        .singleElement().satisfies(p -> {
          assertThat(p.field()).isEqualTo("spec.vllmConfig.speculative.model");
          assertThat(p.fatal()).isFalse();
        });
  }

  @Test
  void runtimeBlocksOnTheWrongRuntime() {
    assertThat(problems("modelRef: m\nvllmConfig: {maxModelLen: 4096}\ntgiConfig: {dtype: float16}"))
        .extracting(FieldProblem::field).containsExactly("spec.vllmConfig", "spec.tgiConfig");
    assertThat(problems("modelRef: m\nruntime: vllm\ncontextSize: 4096\nargs: [x]"))
        .extracting(FieldProblem::field).containsExactly("spec.args", "spec.contextSize");
    assertThat(problems("modelRef: m\nruntime: generic\nimage: a/b:1\nextraArgs: [--x]"))
        .extracting(FieldProblem::describe).containsExactly(
            "spec.extraArgs: ignored with runtime generic: runtime generic does not read it (use spec.args)");
  }

  @Test
  void moreGpusThanAnyNodeHas() {
    assertThat(problems("modelRef: m\nresources: {gpu: 3}", MODEL, TWO_GPUS)).singleElement().satisfies(p -> {
      assertThat(p.field()).isEqualTo("spec.resources.gpu");
      assertThat(p.reason()).isEqualTo("ExceedsNodeCapacity");
      assertThat(p.message()).contains("3 nvidia.com/gpu").contains("the largest node has 2");
    });
    assertThat(problems("modelRef: m", MODEL + "hardware: {gpu: {count: 1, vendor: amd}}", TWO_GPUS))
        .singleElement().satisfies(p -> {
          assertThat(p.field()).isEqualTo("spec.modelRef");
          assertThat(p.message()).contains("no node offers amd.com/gpu");
        });
    assertThat(problems("modelRef: m\nresources: {gpu: 2}", MODEL, TWO_GPUS)).isEmpty();
  }

  @Test
  void theModelsGpuCountWins() {
    assertThat(problems("modelRef: m\nresources: {gpu: 1}", MODEL + "hardware: {gpu: {count: 2}}",
        ClusterFacts.UNKNOWN)).singleElement().satisfies(p -> {
          assertThat(p.field()).isEqualTo("spec.resources.gpu");
          assertThat(p.message()).isEqualTo("1 ignored: Model m asks for 2 (spec.hardware.gpu.count), which wins");
        });
  }

  @Test
  void missingImageIsFatal() {
    assertThat(problems("modelRef: m\nruntime: personaplex")).singleElement().satisfies(p -> {
      assertThat(p.field()).isEqualTo("spec.image");
      assertThat(p.fatal()).isTrue();
    });
  }

  @Test
  void namesThatCannotNameAService() {
    assertThat(IsvcValidator.validate(TestObjects.isvc("9lives", "modelRef: m"), TestObjects.model(MODEL),
        ClusterFacts.UNKNOWN)).singleElement().satisfies(p -> {
          assertThat(p.field()).isEqualTo("metadata.name");
          assertThat(p.fatal()).isTrue();
        });
    assertThat(IsvcValidator.validate(TestObjects.isvc("llama.3", "modelRef: m"), TestObjects.model(MODEL),
        ClusterFacts.UNKNOWN)).isEmpty();
  }

  @Test
  void offloadWithoutMemoryAndOrphanReasoningMessage() {
    assertThat(problems("modelRef: m\nmoeCPUOffload: true\nreasoningBudgetMessage: stop"))
        .extracting(FieldProblem::field).containsExactly("spec.resources.hostMemory", "spec.reasoningBudgetMessage");
    assertThat(problems("modelRef: m\nmoeCPUOffload: true\nresources: {hostMemory: 64Gi}")).isEmpty();
  }

  @Test
  void layerSplitThatDoesNotMatchTheGpus() {
    assertThat(problems("modelRef: m", MODEL + "hardware: {gpu: {count: 2, sharding: {layerSplit: [0-39]}}}",
        ClusterFacts.UNKNOWN)).extracting(FieldProblem::reason).containsExactly("InvalidLayerSplit");
  }

  @Test
  void missingPriorityClasses() {
    assertThat(problems("modelRef: m\npriority: low", MODEL, TWO_GPUS)).singleElement().satisfies(p -> {
      assertThat(p.field()).isEqualTo("spec.priority");
      assertThat(p.message()).contains("llmkube-low");
    });
    assertThat(problems("modelRef: m\npriorityClassName: gold", MODEL, TWO_GPUS)).extracting(FieldProblem::field)
        .containsExactly("spec.priorityClassName");
    assertThat(problems("modelRef: m\npriority: high", MODEL, TWO_GPUS)).isEmpty();
  }

  @Test
  void autoscalingWithoutAnyMetric() {
    assertThat(problems("modelRef: m\nruntime: generic\nimage: a/b:1\nautoscaling: {maxReplicas: 3}"))
        .extracting(FieldProblem::field).containsExactly("spec.autoscaling.metrics");
  }

  @Test
  void newerFields() {
    assertThat(problems("modelRef: m\nruntime: vllm\nspeculativeDecoding: {type: mtp}"))
        .extracting(FieldProblem::field).containsExactly("spec.speculativeDecoding");
    assertThat(problems("modelRef: m\nsglangConfig: {contextLength: 4096}")).extracting(FieldProblem::field)
        .containsExactly("spec.sglangConfig");
    assertThat(problems("modelRef: m\nruntime: sglang\nsglangConfig: {speculative: {enabled: true}, "
        + "memFractionStatic: 0.8}")).extracting(FieldProblem::field)
        .containsExactly("spec.sglangConfig.speculative", "spec.sglangConfig.memFractionStatic");
    assertThat(problems("modelRef: m\nmodelCache: {persistence: Ephemeral}")).extracting(FieldProblem::reason)
        .containsExactly("MissingEphemeralStorage");
    assertThat(problems("""
        modelRef: m
        rolloutPolicy: {waitForIdle: true}
        maxPodLifetimeSeconds: 3600
        maxPodLifetimeIdleTimeoutSeconds: 60
        slo: {indicator: availability, objective: "99"}
        endpoint: {gateway: {enabled: true, gatewayRef: {name: g}}}
        """)).as("slo and gateway are implemented").isEmpty();
    assertThat(problems("modelRef: m\nslo: {indicator: latency, objective: \"99\", latencyThreshold: \"2\"}"))
        .singleElement().satisfies(p -> assertThat(p.describe()).isEqualTo("spec.slo.indicator: latency needs a "
            + "request-latency histogram, which only the vllm runtime exports, so no ServiceLevelObjective is "
            + "created"));
    assertThat(problems("modelRef: m\nruntime: vllm\nslo: {indicator: latency, objective: \"99\", "
        + "latencyThreshold: \"2\"}")).isEmpty();
    assertThat(problems("modelRef: m\nmaxPodLifetimeSeconds: 3600\nmaxPodLifetimeIdleTimeoutSeconds: 60"))
        .singleElement().satisfies(p -> {
          assertThat(p.field()).isEqualTo("spec.maxPodLifetimeIdleTimeoutSeconds");
          assertThat(p.reason()).isEqualTo("IgnoredField");
          assertThat(p.describe()).isEqualTo("spec.maxPodLifetimeIdleTimeoutSeconds: only applies with "
              + "rolloutPolicy.waitForIdle; recycling does not wait for idle servers");
        });
  }

  @Test
  void draftWeightsMustBeAFile() {
    assertThat(problems("modelRef: m\nspeculativeDecoding: {type: draft, draftModel: d.gguf}",
        "source: hf://o/r\nfiles: [main.gguf]\n", ClusterFacts.UNKNOWN)).extracting(FieldProblem::reason)
        .containsExactly("DraftNotStaged");
    assertThat(IsvcValidator.validate(TestObjects.isvc("modelRef: m\nspeculativeDecoding: {type: draft, "
        + "draftModelRef: d}"), TestObjects.model(MODEL), TestObjects.model("d", "source: o/draft\n"),
        ClusterFacts.UNKNOWN)).extracting(FieldProblem::reason).containsExactly("DraftNotAFile");
  }
}
