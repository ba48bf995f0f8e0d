package dev.modelplane.operator.modelsource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.api.ome.v1beta1.ModelFormat;
import dev.modelplane.api.ome.v1beta1.ModelFrameworkSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Model directories generated on disk, read as OME's agent reads them. */
class ModelMetadataReaderTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir
  Path dir;

  @Test
  void aLlamaLikeTextModel() throws IOException {
    write("config.json", """
        {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 64,
         "num_hidden_layers": 2, "vocab_size": 1000, "max_position_embeddings": 131072,
         "torch_dtype": "bfloat16", "transformers_version": "4.43.0.dev0",
         "rope_scaling": {"factor": 8.0, "original_max_position_embeddings": 8192}}
        """);
    new SafetensorsTestWriter().tensor("model.embed_tokens.weight", "BF16", 1000, 64)
        .tensor("model.layers.0.mlp.up_proj.weight", "BF16", 256, 64).tensor("model.norm.weight", "BF16", 64)
        .write(dir.resolve("model.safetensors"));

    ModelMetadata m = found(dir).metadata();

    assertThat(m.modelType()).isEqualTo("llama");
    assertThat(m.modelArchitecture()).isEqualTo("LlamaForCausalLM");
    assertThat(m.maxTokens()).isEqualTo(131072);
    assertThat(m.modelFramework()).isEqualTo(new ModelFrameworkSpec("transformers", "4.43.0.dev0", null, null));
    assertThat(m.modelFormat()).isEqualTo(new ModelFormat("safetensors", "1.0.0", null, null));
    assertThat(m.quantization()).isNull();
    assertThat(m.modelCapabilities()).containsExactly("TEXT_TO_TEXT");
    assertThat(m.parameterCount()).isEqualTo(new ParameterCount(80_448, ParameterCount.Source.SAFETENSORS_HEADERS));
    assertThat(m.modelParameterSize()).isEqualTo("80.45K");
    assertThat(m.modelConfiguration().toString()).isEqualTo(JSON.readTree("""
        {"model_type": "llama", "architecture": "LlamaForCausalLM", "context_length": 131072,
         "parameter_count": "80.45K", "has_vision": false, "is_embedding": false,
         "transformers_version": "4.43.0.dev0", "torch_dtype": "bfloat16", "model_size_bytes": 160896}
        """).toString());
  }

  @Test
  void aShardedModelIsCountedFromEveryShardOnce() throws IOException {
    write("config.json", "{\"model_type\": \"qwen2\", \"architectures\": [\"Qwen2ForCausalLM\"],"
        + " \"max_position_embeddings\": 32768, \"seq_length\": 4096, \"torch_dtype\": \"bfloat16\"}");
    new SafetensorsTestWriter().tensor("a", "BF16", 1000, 1000).write(dir.resolve("model-00001-of-00002.safetensors"));
    new SafetensorsTestWriter().tensor("b", "BF16", 500, 1000).tensor("c", "BF16", 40_000)
        .write(dir.resolve("model-00002-of-00002.safetensors"));
    write("model.safetensors.index.json", """
        {"metadata": {"total_size": 3080000}, "weight_map": {"a": "model-00001-of-00002.safetensors",
         "b": "model-00002-of-00002.safetensors", "c": "model-00002-of-00002.safetensors"}}
        """);

    ModelMetadataResult.Found result = found(dir);

    assertThat(result.metadata().parameterCount().value()).isEqualTo(1_540_000);
    assertThat(result.metadata().modelParameterSize()).as("OME's one-decimal rule").isEqualTo("1.5M");
    assertThat(result.metadata().maxTokens()).as("Qwen reads seq_length first").isEqualTo(4096);
    assertThat(result.notes()).isEmpty();

    // A partial download: the index's total size over the dtype width stands in, and the note says why.
    Files.delete(dir.resolve("model-00002-of-00002.safetensors"));
    result = found(dir);
    assertThat(result.metadata().parameterCount())
        .isEqualTo(new ParameterCount(1_540_000, ParameterCount.Source.INDEX_TOTAL_SIZE));
    assertThat(result.metadata().modelFormat().name()).isEqualTo("safetensors");
    assertThat(result.notes()).containsExactly(dir.resolve("model.safetensors.index.json")
        + ": names 2 shard files, 1 of them missing: model-00002-of-00002.safetensors");
  }

  @Test
  void aVisionModelReadsItsTextConfig() throws IOException {
    write("config.json", """
        {"model_type": "llava", "architectures": ["LlavaForConditionalGeneration"],
         "text_config": {"max_position_embeddings": 4096, "hidden_size": 64, "num_hidden_layers": 2,
                         "vocab_size": 100, "torch_dtype": "float16"},
         "vision_config": {"image_size": 336}}
        """);

    ModelMetadata m = found(dir).metadata();

    assertThat(m.modelCapabilities()).containsExactly("IMAGE_TEXT_TO_TEXT");
    assertThat(m.maxTokens()).isEqualTo(4096);
    assertThat(m.modelFormat()).as("no weights on disk").isNull();
    assertThat(m.modelFramework()).isEqualTo(new ModelFrameworkSpec("transformers", null, null, null));
    // No weights: OME's estimate, vocab·h + 12·h²·layers, from the nested dimensions.
    assertThat(m.parameterCount()).isEqualTo(new ParameterCount(100 * 64 + 2 * 12 * 64 * 64,
        ParameterCount.Source.CONFIG_ESTIMATE));
    assertThat(m.modelConfiguration().path("torch_dtype").asText()).isEqualTo("float16");
  }

  @Test
  void aDiffusersPipeline() throws IOException {
    write("model_index.json", """
        {"_class_name": "StableDiffusion3Pipeline", "_diffusers_version": "0.29.0.dev0",
         "scheduler": ["diffusers", "FlowMatchEulerDiscreteScheduler"],
         "text_encoder": ["transformers", "CLIPTextModelWithProjection"],
         "tokenizer": ["transformers", "CLIPTokenizer"],
         "transformer": ["diffusers", "SD3Transformer2DModel"], "vae": ["diffusers", "AutoencoderKL"],
         "text_encoder_2": ["transformers", "CLIPTextModelWithProjection"], "tokenizer_2": null}
        """);
    write("text_encoder/config.json", "{\"max_position_embeddings\": 77, \"model_type\": \"clip_text_model\"}");
    new SafetensorsTestWriter().tensor("t", "F16", 10, 10).write(dir.resolve("text_encoder/model.safetensors"));
    new SafetensorsTestWriter().tensor("t", "F16", 10, 20).write(dir.resolve("text_encoder_2/model.safetensors"));
    new SafetensorsTestWriter().tensor("x", "F16", 1000)
        .write(dir.resolve("transformer/diffusion_pytorch_model.safetensors"));
    new SafetensorsTestWriter().tensor("v", "F16", 50).write(dir.resolve("vae/diffusion_pytorch_model.safetensors"));
    // A config.json elsewhere in the tree does not win over the pipeline index.
    write("text_encoder_2/config.json", "{\"model_type\": \"clip_text_model\"}");

    ModelMetadataResult.Found result = found(dir);
    ModelMetadata m = result.metadata();

    assertThat(result.configFile()).isEqualTo(dir.resolve("model_index.json"));
    assertThat(m.modelType()).isEqualTo("diffusers");
    assertThat(m.modelArchitecture()).isEqualTo("StableDiffusion3Pipeline");
    assertThat(m.modelFormat()).isEqualTo(new ModelFormat("diffusers", "0.29.0.dev0", null, null));
    assertThat(m.modelFramework()).isEqualTo(new ModelFrameworkSpec("diffusers", "0.29.0.dev0", null, null));
    assertThat(m.modelCapabilities()).containsExactly("TEXT_TO_IMAGE");
    assertThat(m.maxTokens()).isEqualTo(77);
    assertThat(m.parameterCount().value()).isEqualTo(100 + 200 + 1000 + 50);
  }

  @Test
  void aQuantizedModel() throws IOException {
    write("config.json", """
        {"model_type": "qwen3", "architectures": ["Qwen3ForCausalLM"], "max_position_embeddings": 40960,
         "quantization_config": {"quant_method": "fp8", "fmt": "e4m3", "weight_block_size": [128, 128]}}
        """);
    assertThat(found(dir).metadata().quantization()).isEqualTo("fp8");
  }

  @Test
  void configJsonIsFoundInTheKnownSubdirectoriesThenBelow() throws IOException {
    write("b/deep/config.json", "{\"model_type\": \"b\"}");
    write("a/config.json", "{\"model_type\": \"a\"}");
    assertThat(found(dir).configFile()).isEqualTo(dir.resolve("a/config.json"));
    write("model/config.json", "{\"model_type\": \"m\"}");
    write("pytorch_model/config.json", "{\"model_type\": \"p\"}");
    assertThat(found(dir).metadata().modelType()).isEqualTo("p");
    write("safetensors/config.json", "{\"model_type\": \"s\"}");
    assertThat(found(dir).metadata().modelType()).isEqualTo("s");
    write("config.json", "{\"model_type\": \"root\"}");
    assertThat(found(dir).metadata().modelType()).isEqualTo("root");
  }

  @Test
  void anEmbeddingModelBySentenceTransformersConfig() throws IOException {
    write("config.json", "{\"model_type\": \"qwen3\", \"architectures\": [\"Qwen3ForCausalLM\"]}");
    write("config_sentence_transformers.json", "{\"similarity_fn_name\": \"cosine\"}");
    assertThat(found(dir).metadata().modelCapabilities()).containsExactly("EMBEDDING");
    assertThat(found(dir).metadata().modelConfiguration().path("is_embedding").asBoolean()).isTrue();
  }

  @Test
  void aDirectoryWithoutConfigIsAResultNotAnError() throws IOException {
    Files.writeString(dir.resolve("README.md"), "weights coming");
    assertThat(ModelMetadataReader.read(dir))
        .isEqualTo(new ModelMetadataResult.NoConfig("no model_index.json or config.json in " + dir));
    assertThat(ModelMetadataReader.read(dir.resolve("absent")))
        .isEqualTo(new ModelMetadataResult.NoConfig("model directory " + dir.resolve("absent") + " does not exist"));
  }

  @Test
  void malformedJsonIsAClearError() throws IOException {
    write("config.json", "{\"model_type\": \"llama\",\n \"hidden_size\": }");
    assertThatThrownBy(() -> ModelMetadataReader.read(dir))
        .isInstanceOf(ModelConfigException.class)
        .hasMessageStartingWith(dir.resolve("config.json") + ": is not valid JSON: Unexpected character ('}'")
        .hasMessageEndingWith("(line 2, column 17)");
    write("config.json", "[\"llama\"]");
    assertThatThrownBy(() -> ModelMetadataReader.read(dir))
        .hasMessage(dir.resolve("config.json") + ": is not a JSON object");
    Files.delete(dir.resolve("config.json"));
    write("model_index.json", "{\"_diffusers_version\": \"0.30.0\"}");
    assertThatThrownBy(() -> ModelMetadataReader.read(dir))
        .hasMessage(dir.resolve("model_index.json") + ": has no diffusion pipeline class or components");
  }

  @Test
  void pythonsNonFiniteNumbersAreAccepted() throws IOException {
    write("config.json", "{\"model_type\": \"nemotron_h\", \"time_step_limit\": [0.0, Infinity],"
        + " \"x\": NaN, \"max_position_embeddings\": 8192}");
    assertThat(found(dir).metadata().maxTokens()).isEqualTo(8192);
  }

  @Test
  void aCorruptShardFallsBackToTheEstimateWithANote() throws IOException {
    write("config.json", "{\"model_type\": \"llama\", \"hidden_size\": 10, \"num_hidden_layers\": 1,"
        + " \"vocab_size\": 10}");
    Files.write(dir.resolve("model.safetensors"), new byte[] {1, 2});
    ModelMetadataResult.Found result = found(dir);
    assertThat(result.metadata().parameterCount())
        .isEqualTo(new ParameterCount(100 + 1200, ParameterCount.Source.CONFIG_ESTIMATE));
    assertThat(result.notes()).containsExactly("safetensors weights not counted: " + dir.resolve("model.safetensors")
        + ": is 2 bytes, too short for the 8-byte header length");
  }

  private ModelMetadataResult.Found found(Path modelDir) throws IOException {
    ModelMetadataResult result = ModelMetadataReader.read(modelDir);
    assertThat(result).isInstanceOf(ModelMetadataResult.Found.class);
    return (ModelMetadataResult.Found) result;
  }

  private void write(String relative, String content) throws IOException {
    Path file = dir.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
  }

}
