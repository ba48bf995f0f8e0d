package dev.modelplane.simulator.physics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hugging Face config.json files read into geometries, and what a user sees when one cannot be. */
class ModelGeometryTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  static Path config(String name) throws URISyntaxException {
    return Path.of(ModelGeometryTest.class.getResource("/model-configs/" + name).toURI());
  }

  @Test
  void aLlamaConfigGivesTheBuiltInGeometryAndItsParameterCount() throws Exception {
    ModelGeometry g = ModelGeometry.read(config("llama-3.1-8b-instruct.json"));
    ModelGeometry builtIn = ModelCatalog.geometry("llama-3.1-8b");
    assertThat(g).usingRecursiveComparison().ignoringFields("name").isEqualTo(builtIn);
    assertThat(g.name()).isEqualTo("model-configs/llama-3.1-8b-instruct.json");
    // transformers counted 8,030,261,248 parameters; norms are the difference.
    assertThat(g.totalParams()).isBetween(8.029e9, 8.031e9);
    assertThat(g.kvBytesPerTokenLayer(ModelGeometry.Precision.BF16)).isEqualTo(4096);
  }

  @Test
  void mixtureOfExpertsConfigsCountEveryExpertButStreamOnlyTheActiveOnes() throws Exception {
    ModelGeometry qwen = ModelGeometry.read(config("qwen3-30b-a3b.json"));
    assertThat(qwen.moe()).isEqualTo(new ModelGeometry.Moe(128, 8, 768, 0, 0));
    assertThat(qwen.totalParams() / 1e9).isBetween(30.4, 30.6);
    assertThat(qwen.activeParams() / 1e9).isBetween(3.0, 3.4);
    ModelGeometry deepseek = ModelGeometry.read(config("deepseek-v2-lite.json"));
    assertThat(deepseek.moe()).isEqualTo(new ModelGeometry.Moe(64, 6, 1408, 2816, 1));
    assertThat(deepseek.mla()).isEqualTo(new ModelGeometry.Mla(512, 0, 64, 128, 128));
    // DeepSeek-V2-Lite: 15.7 B parameters, 2.4 B active; its latent KV cache is 576 values per token and layer.
    assertThat(deepseek.totalParams() / 1e9).isBetween(15.5, 15.9);
    assertThat(deepseek.activeParams() / 1e9).isBetween(2.3, 2.6);
    assertThat(deepseek.kvBytesPerTokenLayer(ModelGeometry.Precision.BF16)).isEqualTo(1152);
    StepCostModel m = new StepCostModel(deepseek, Gpu.H100, 1, null, Calibration.H100);
    assertThat(m.decodeMillis(1, 2048)).isPositive();
  }

  @Test
  void quantisedAndMultimodalConfigsAreReadForWhatTheyStream() throws Exception {
    ModelGeometry fp8 = ModelGeometry.read(config("llama-3.1-8b-fp8.json"));
    assertThat(fp8.weights()).isEqualTo(ModelGeometry.Precision.FP8);
    assertThat(fp8.tiedEmbeddings()).isFalse();
    ModelGeometry gemma = ModelGeometry.read(config("gemma-3-multimodal.json"));
    assertThat(gemma.hidden()).isEqualTo(2560);
    assertThat(gemma.layers()).isEqualTo(34);
    assertThat(gemma.kvHeads()).isEqualTo(4);
    assertThat(gemma.tiedEmbeddings()).isTrue(); // transformers' default where the config says nothing
    assertThat(ModelGeometry.fromConfig("awq", JSON.readTree("""
        {"hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32,
         "vocab_size": 32000, "quantization_config": {"quant_method": "awq", "bits": 4}}""")).weights())
        .isEqualTo(ModelGeometry.Precision.INT4);
  }

  @Test
  void configsThatCannotBeModelledSayWhichFieldAndWhy(@TempDir Path dir) throws Exception {
    assertThatThrownBy(() -> ModelGeometry.fromConfig("vit", JSON.readTree("{\"image_size\": 224}")))
        .hasMessage("vit: hidden_size is missing; is this a Hugging Face config.json of a decoder-only language "
            + "model?");
    assertThatThrownBy(() -> ModelGeometry.fromConfig("x", JSON.readTree("""
        {"hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 5,
         "intermediate_size": 1, "vocab_size": 10}""")))
        .hasMessage("x: num_attention_heads (32) must be a multiple of num_key_value_heads (5)");
    assertThatThrownBy(() -> ModelGeometry.fromConfig("x", JSON.readTree("""
        {"hidden_size": 4096.5, "num_hidden_layers": 32, "num_attention_heads": 32, "vocab_size": 10}""")))
        .hasMessage("x: hidden_size must be an integer, got 4096.5");
    assertThatThrownBy(() -> ModelGeometry.fromConfig("x", JSON.readTree("""
        {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 2, "vocab_size": 10}""")))
        .hasMessage("x: intermediate_size must be a positive integer, got 0");
    assertThatThrownBy(() -> ModelGeometry.fromConfig("x", JSON.readTree("""
        {"hidden_size": 64, "intermediate_size": 8, "num_hidden_layers": 2, "num_attention_heads": 2,
         "vocab_size": 10, "torch_dtype": "float8_e4m3fn"}""")))
        .hasMessage("x: torch_dtype \"float8_e4m3fn\" is not modelled; known: bfloat16, float16, float32");
    assertThatThrownBy(() -> ModelGeometry.fromConfig("x", JSON.readTree("""
        {"hidden_size": 64, "intermediate_size": 8, "num_hidden_layers": 2, "num_attention_heads": 2,
         "vocab_size": 10, "quantization_config": {"quant_method": "hqq"}}""")))
        .hasMessageStartingWith("x: quantization_config.quant_method \"hqq\" is not modelled");
    Path broken = dir.resolve("config.json");
    Files.writeString(broken, "{\"hidden_size\": ");
    assertThatThrownBy(() -> ModelGeometry.read(broken)).hasMessageStartingWith(broken + " is not valid JSON");
  }

  @Test
  void servedModelNamesAreMatchedToBuiltInGeometriesByFamilyAndSize() {
    assertThat(ModelCatalog.guess("meta-llama/Llama-3.1-8B-Instruct").name()).isEqualTo("llama-3.1-8b");
    assertThat(ModelCatalog.guess("meta-llama/Meta-Llama-3.1-70B-Instruct-FP8").name()).isEqualTo("llama-3.1-70b");
    assertThat(ModelCatalog.guess("Qwen/Qwen3-30B-A3B").name()).isEqualTo("qwen3-30b-a3b");
    assertThat(ModelCatalog.guess("mistralai/Mixtral-8x7B-Instruct-v0.1").name()).isEqualTo("mixtral-8x7b");
    assertThat(ModelCatalog.guess("/models/d4/qwen2.5-0.5b-instruct-q4_k_m.gguf").name()).isEqualTo("qwen2.5-0.5b");
    assertThat(ModelCatalog.guess("meta-llama/Llama-3.1-80B")).isNull();
    assertThat(ModelCatalog.guess("mistralai/Mistral-7B-Instruct-v0.3")).isNull();
    assertThat(ModelCatalog.guess(null)).isNull();
  }
}
