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
}
