package dev.modelplane.operator.ome.isvc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.InferenceServiceSpec;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

class PredictorConversionTest {
  private static InferenceServiceSpec spec(String yaml) {
    return Serialization.unmarshal(yaml, InferenceService.class).getSpec();
  }

  @Test
  void aPredictorBecomesTheEngineWithItsServingContainerAsRunner() {
    InferenceServiceSpec spec = PredictorConversion.effective(spec("""
        apiVersion: ome.io/v1beta1
        kind: InferenceService
        metadata: {name: legacy, namespace: llm}
        spec:
          predictor:
            minReplicas: 0
            maxReplicas: 3
            canaryTrafficPercent: 20
            model: {baseModel: mistral, runtime: vllm-mistral, fineTunedWeights: [ft]}
            workerSpec: {size: 1}
            containers:
              - name: sidecar
                image: busybox
              - name: ome-container
                env: [{name: A, value: b}]
        """));
    assertThat(spec.predictor()).isNull();
    assertThat(spec.engine().getMinReplicas()).isZero();
    assertThat(spec.engine().getMaxReplicas()).isEqualTo(3);
    assertThat(spec.engine().getCanaryTrafficPercent()).isEqualTo(20L);
    assertThat(spec.engine().getRunner().getName()).isEqualTo("ome-container");
    assertThat(spec.engine().getRunner().getEnv()).singleElement().satisfies(e -> assertThat(e.getValue())
        .isEqualTo("b"));
    assertThat(spec.engine().getContainers()).singleElement().satisfies(c -> assertThat(c.getName())
        .isEqualTo("sidecar"));
    assertThat(spec.engine().getWorker().getSize()).isEqualTo(1);
    assertThat(spec.engine().getAdditionalProperties()).isEmpty();
    assertThat(spec.model().name()).isEqualTo("mistral");
    assertThat(spec.model().fineTunedWeights()).containsExactly("ft");
    assertThat(spec.runtime().name()).isEqualTo("vllm-mistral");
  }

  @Test
  void withoutAnOmeContainerTheFirstContainerIsTheRunner() {
    InferenceServiceSpec spec = PredictorConversion.effective(spec("""
        apiVersion: ome.io/v1beta1
        kind: InferenceService
        metadata: {name: legacy}
        spec:
          model: {name: llama}
          predictor:
            containers: [{name: server, image: custom}]
        """));
    assertThat(spec.engine().getRunner().getName()).isEqualTo("server");
    assertThat(spec.engine().getContainers()).isNull();
    assertThat(spec.model().name()).isEqualTo("llama");
    assertThat(spec.runtime()).isNull();
  }

  @Test
  void anEngineWinsOverAPredictorAndASpecWithoutPredictorIsKept() {
    InferenceServiceSpec both = spec("""
        apiVersion: ome.io/v1beta1
        kind: InferenceService
        metadata: {name: x}
        spec:
          engine: {minReplicas: 2}
          predictor: {minReplicas: 0}
        """);
    assertThat(PredictorConversion.effective(both)).isSameAs(both);
  }

  @Test
  void theModelsContainerFieldsFillTheRunnerAndItsUriAndProtocolBecomeVariables() {
    InferenceServiceSpec spec = PredictorConversion.effective(spec("""
        apiVersion: ome.io/v1beta1
        kind: InferenceService
        metadata: {name: legacy}
        spec:
          predictor:
            model:
              baseModel: llama
              storageUri: oci://n/ns/b/models/o/llama
              protocolVersion: openAI
              image: vllm/vllm-openai:v0.25.1
              args: [--max-model-len=8192]
              env: [{name: FROM_MODEL, value: m}]
              resources: {limits: {nvidia.com/gpu: "2"}}
            containers:
              - name: ome-container
                args: [--port=8080]
                env: [{name: OWN, value: o}]
        """));
    var runner = spec.engine().getRunner();
    assertThat(runner.getName()).isEqualTo("ome-container");
    assertThat(runner.getImage()).isEqualTo("vllm/vllm-openai:v0.25.1");
    assertThat(runner.getArgs()).containsExactly("--port=8080");
    assertThat(runner.getResources().getLimits()).containsKey("nvidia.com/gpu");
    assertThat(runner.getEnv()).extracting(e -> e.getName() + "=" + e.getValue()).containsExactly("OWN=o",
        "FROM_MODEL=m", "STORAGE_URI=oci://n/ns/b/models/o/llama", "PROTOCOL_VERSION=openAI");
  }

  @Test
  void withoutContainersTheModelsContainerIsTheRunnerEvenUnnamed() {
    InferenceServiceSpec spec = PredictorConversion.effective(spec("""
        apiVersion: ome.io/v1beta1
        kind: InferenceService
        metadata: {name: legacy}
        spec:
          predictor:
            model:
              baseModel: llama
              protocolVersion: openAI
              image: custom:1
              env: [{name: PROTOCOL_VERSION, value: kept}]
        """));
    var runner = spec.engine().getRunner();
    assertThat(runner.getName()).isEqualTo("ome-container");
    assertThat(runner.getImage()).isEqualTo("custom:1");
    assertThat(runner.getEnv()).extracting(e -> e.getName() + "=" + e.getValue())
        .containsExactly("PROTOCOL_VERSION=kept");
    assertThat(runner.getAdditionalProperties()).isEmpty();
  }

  @Test
  void aPredictorWithOnlyAModelReferenceHasNoRunner() {
    InferenceServiceSpec spec = PredictorConversion.effective(spec("""
        apiVersion: ome.io/v1beta1
        kind: InferenceService
        metadata: {name: legacy}
        spec:
          predictor:
            model: {baseModel: llama, runtime: rt}
        """));
    assertThat(spec.engine().getRunner()).isNull();
    assertThat(spec.model().name()).isEqualTo("llama");
  }
}
