package dev.modelplane.operator.ome.isvc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.modelplane.api.ome.v1beta1.BaseModelSpec;
import dev.modelplane.api.ome.v1beta1.FineTunedWeight;
import dev.modelplane.api.ome.v1beta1.FineTunedWeightSpec;
import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.ModelFormat;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OmeLabelsTest {
  private static final JsonMapper JSON = new JsonMapper();

  private static InferenceService isvc() {
    InferenceService isvc = new InferenceService();
    isvc.setMetadata(new ObjectMetaBuilder().withName("llama").withNamespace("llm")
        .withLabels(Map.of("team", "a", "component", "overridden"))
        .withAnnotations(Map.of("ome.io/autoscalerClass", "keda", "autoscaling.knative.dev/min-scale", "2")).build());
    return isvc;
  }

  private static ServedModel model(FineTunedWeight ft) {
    BaseModelSpec spec = new BaseModelSpec(new ModelFormat("safetensors", "1.0.0", null, null), null, null, null,
        null, null, null, null, null, null, null, null, "meta", null, null, null, null, null, null);
    return new ServedModel(new BaseModelKey(null, "llama-3-1-8b"), Map.of("models.ome.io/category", "LARGE",
        "ome.io/base-model-decryption-key-name", "k"), spec, ft, null, null);
  }

  private static FineTunedWeight lora(boolean merged) throws Exception {
    FineTunedWeight ft = new FineTunedWeight();
    ft.setMetadata(new ObjectMetaBuilder().withName("support").build());
    ft.setSpec(new FineTunedWeightSpec(null, "LoRA", JSON.readTree("{\"strategy\":\"LoRA\"}"),
        JSON.readTree("{\"merged_weights\":" + merged + "}"), null, null, null, null, null, null, null));
    return ft;
  }

  @Test
  void componentObjectsCarryOmesLabelsOverTheServicesAndTheComponentsOwn() {
    Map<String, String> labels = OmeLabels.labels(isvc(), "engine", Map.of("tier", "gold"), model(null), "vllm");
    assertThat(labels).containsEntry("team", "a").containsEntry("tier", "gold")
        .containsEntry("ome.io/inferenceservice", "llama").containsEntry("component", "engine")
        .containsEntry("serving-runtime", "vllm").containsEntry("fine-tuned-serving", "false")
        .containsEntry("base-model-name", "llama-3-1-8b").containsEntry("base-model-size", "LARGE")
        .containsEntry("base-model-type", "Serving").containsEntry("base-model-vendor", "meta")
        .doesNotContainKeys("fine-tuned-weight-ft-strategy");
  }

  @Test
  void annotationsCarryModelAndRuntimeButNotTheServicesScaleSettings() {
    Map<String, String> annotations = OmeLabels.annotations(isvc(), Map.of("x", "y"), model(null), "vllm");
    assertThat(annotations).containsEntry("ome.io/autoscalerClass", "keda").containsEntry("x", "y")
        .containsEntry("ome.io/base-model-name", "llama-3-1-8b").containsEntry("ome.io/base-model-vendor", "meta")
        .containsEntry("ome.io/base-model-format", "safetensors")
        .containsEntry("ome.io/base-model-format-version", "1.0.0").containsEntry("ome.io/serving-runtime", "vllm")
        .containsEntry("ome.io/base-model-decryption-key-name", "k")
        .doesNotContainKey("autoscaling.knative.dev/min-scale");
  }

  @Test
  void fineTunedServingIsMarkedAndMergedWeightsSkipTheBaseModelsInit() throws Exception {
    Map<String, String> labels = OmeLabels.labels(isvc(), "engine", null, model(lora(false)), "vllm");
    assertThat(labels).containsEntry("fine-tuned-serving", "true").containsEntry("fine-tuned-weight-ft-strategy",
        "lora").containsEntry("fine-tuned-serving-with-merged-weights", "false");
    Map<String, String> merged = OmeLabels.annotations(isvc(), null, model(lora(true)), "vllm");
    assertThat(merged).containsEntry("ome.io/inject-fine-tuned-adapter", "support")
        .containsEntry("ome.io/fine-tuned-weight-ft-strategy", "lora")
        .containsEntry("ome.io/fine-tuned-serving-with-merged-weights", "true")
        .containsEntry("ome.io/inject-model-init", "false")
        .doesNotContainKey("ome.io/base-model-decryption-key-name");
  }
}
