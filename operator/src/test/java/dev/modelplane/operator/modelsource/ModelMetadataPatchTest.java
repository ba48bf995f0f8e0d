package dev.modelplane.operator.modelsource;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.api.ome.v1beta1.BaseModelSpec;
import dev.modelplane.api.ome.v1beta1.ModelFormat;
import dev.modelplane.api.ome.v1beta1.ModelFrameworkSpec;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Fill-if-empty: the merge patch sets only what the spec leaves empty, and the opt-out annotation. */
class ModelMetadataPatchTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ModelMetadata llama() throws IOException {
    return new ModelMetadata("llama", "LlamaForCausalLM", 131072,
        new ModelFrameworkSpec("transformers", "4.43.0", null, null), new ModelFormat("safetensors", "1.0.0", null,
        null), "fp8", List.of("TEXT_TO_TEXT"), "8.03B", new ParameterCount(8_030_261_248L,
        ParameterCount.Source.SAFETENSORS_HEADERS), JSON.readTree("{\"context_length\": 131072}"));
  }

  @Test
  void anEmptySpecGetsEveryField() throws IOException {
    BaseModelSpec spec = spec("{\"storage\": {\"storageUri\": \"hf://meta-llama/Llama-3.1-8B\"}}");
    assertThat(ModelMetadataPatch.fillEmpty(spec, llama())).isEqualTo(JSON.readTree("""
        {"modelType": "llama", "modelArchitecture": "LlamaForCausalLM", "quantization": "fp8",
         "modelParameterSize": "8.03B", "maxTokens": 131072, "modelCapabilities": ["TEXT_TO_TEXT"],
         "modelConfiguration": {"context_length": 131072},
         "modelFormat": {"name": "safetensors", "version": "1.0.0"},
         "modelFramework": {"name": "transformers", "version": "4.43.0"}}
        """));
  }

  @Test
  void specValuesAreNeverOverwritten() throws IOException {
    BaseModelSpec spec = spec("""
        {"storage": {"storageUri": "hf://x/y"}, "modelType": "custom", "modelArchitecture": "Mine",
         "quantization": "int4", "modelParameterSize": "8B", "maxTokens": 8192,
         "modelCapabilities": ["EMBEDDING"], "modelConfiguration": {"a": 1},
         "modelFormat": {"name": "safetensors", "version": "2.0.0"},
         "modelFramework": {"name": "transformers", "version": "4.40.0"}}
        """);
    assertThat(ModelMetadataPatch.fillEmpty(spec, llama())).isEmpty();
  }

  @Test
  void blankAndEmptyValuesCountAsEmpty() throws IOException {
    BaseModelSpec spec = spec("""
        {"storage": {"storageUri": "hf://x/y"}, "modelType": " ", "modelCapabilities": [],
         "modelConfiguration": {}, "maxTokens": 4096, "modelArchitecture": "LlamaForCausalLM",
         "quantization": "fp8", "modelParameterSize": "8B",
         "modelFormat": {"name": "SafeTensors"}, "modelFramework": {"name": "ONNXRuntime"}}
        """);
    assertThat(ModelMetadataPatch.fillEmpty(spec, llama())).isEqualTo(JSON.readTree("""
        {"modelType": "llama", "modelCapabilities": ["TEXT_TO_TEXT"],
         "modelConfiguration": {"context_length": 131072}, "modelFormat": {"version": "1.0.0"}}
        """));
  }

  @Test
  void unknownMetadataFillsNothing() throws IOException {
    BaseModelSpec spec = spec("{\"storage\": {\"storageUri\": \"hf://x/y\"}}");
    ModelMetadata nothing = new ModelMetadata(null, null, null, null, null, null, null, null, null, null);
    assertThat(ModelMetadataPatch.fillEmpty(spec, nothing)).isEmpty();
    ModelMetadata noVersion = new ModelMetadata(null, null, 0, new ModelFrameworkSpec("transformers", null, null,
        null), null, null, List.of(), null, null, null);
    assertThat(ModelMetadataPatch.fillEmpty(spec, noVersion))
        .isEqualTo(JSON.readTree("{\"modelFramework\": {\"name\": \"transformers\"}}"));
  }

  @Test
  void theOptOutAnnotation() {
    assertThat(ModelMetadataPatch.skipsConfigParsing(Map.of("ome.oracle.com/skip-config-parsing", "true"))).isTrue();
    assertThat(ModelMetadataPatch.skipsConfigParsing(Map.of("ome.oracle.com/skip-config-parsing", "TRUE"))).isTrue();
    assertThat(ModelMetadataPatch.skipsConfigParsing(Map.of("ome.oracle.com/skip-config-parsing", "false")))
        .isFalse();
    assertThat(ModelMetadataPatch.skipsConfigParsing(Map.of("ome.oracle.com/skip-config-parsing", "yes"))).isFalse();
    assertThat(ModelMetadataPatch.skipsConfigParsing(Map.of("ome.io/skip-config-parsing", "true"))).isFalse();
    assertThat(ModelMetadataPatch.skipsConfigParsing(Map.of())).isFalse();
    assertThat(ModelMetadataPatch.skipsConfigParsing(new HashMap<>())).isFalse();
    assertThat(ModelMetadataPatch.skipsConfigParsing(null)).isFalse();
  }

  private static BaseModelSpec spec(String json) throws IOException {
    return JSON.readValue(json, BaseModelSpec.class);
  }
}
