package dev.modelplane.operator.modelsource;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The keys OME reads from config.json: context length per family, quantization, and the capability rules. */
class ModelConfigTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "{'model_type':'llama','max_position_embeddings':131072}|131072",
      "{'model_type':'qwen2','max_position_embeddings':32768,'seq_length':8192}|8192",
      "{'model_type':'qwen2','max_position_embeddings':32768}|32768",
      "{'model_type':'baichuan','model_max_length':4096,'max_position_embeddings':2048}|4096",
      "{'model_type':'chatglm','seq_length':8192,'max_position_embeddings':1}|8192",
      "{'model_type':'dbrx','max_seq_len':32768}|32768",
      "{'model_type':'llava','max_position_embeddings':1,'text_config':{'max_position_embeddings':4096}}|4096",
      "{'model_type':'gemma3','text_config':{'max_position_embeddings':131072,'sliding_window':1024}}|131072",
      "{'model_type':'deepseek_vl_v2','language_config':{'max_position_embeddings':4096}}|4096",
      "{'model_type':'internvl_chat','llm_config':{'max_position_embeddings':32768}}|32768",
      "{'model_type':'llama','max_position_embeddings':0,'max_sequence_length':2048}|2048",
      "{'model_type':'gpt2','n_positions':1024}|1024",
      "{'model_type':'mpt','max_seq_len':2048}|2048",
      "{'model_type':'llama','max_position_embeddings':'4096'}|-1",
      "{'model_type':'llama'}|-1",
  })
  void contextLength(String json, long expected) throws IOException {
    assertThat(config(json).contextLength())
        .isEqualTo(expected < 0 ? OptionalLong.empty() : OptionalLong.of(expected));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "{'model_type':'llama'}|''",
      "{'quantization_config':{'quant_method':'fp8'}}|fp8",
      "{'quantization_config':{'quant_method':'fbgemm_fp8'}}|fp8",
      "{'quantization_config':{'quant_method':'w4a16_int4'}}|int4",
      "{'quantization_config':{'quant_method':'awq','bits':4}}|''",
      "{'quantization_config':{'quant_method':'gptq','bits':4}}|''",
      "{'quantization_config':{'quant_method':'mxfp4'}}|''",
      "{'model_type':'llama4','quantization_config':{'fmt':'fp8_e4m3','quant_method':'compressed-tensors'}}|fp8",
  })
  void quantizationAsOmeMapsIt(String json, String expected) throws IOException {
    assertThat(config(json).quantization().orElse("")).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(delimiter = '|', value = {
      "llama|LlamaForCausalLM|false|false|TEXT_TO_TEXT",
      "mistral|MistralForCausalLM|false|false|TEXT_TO_TEXT",
      "mistral|MistralModel|false|false|EMBEDDING",
      "bert|BertModel|false|true|EMBEDDING",
      "xlm-roberta|XLMRobertaModel|false|false|EMBEDDING",
      "qwen2|Qwen2ForSentenceEmbedding|false|false|EMBEDDING",
      "llava|LlavaForConditionalGeneration|true|false|IMAGE_TEXT_TO_TEXT",
      "qwen2_5_omni|Qwen2_5OmniModel|false|false|TEXT_TO_AUDIO IMAGE_TEXT_TO_AUDIO VIDEO_TEXT_TO_AUDIO AUDIO_TO_TEXT AUDIO_TO_AUDIO",
      "whisper|WhisperForConditionalGeneration|false|false|AUDIO_TO_TEXT",
      "wav2vec2|Wav2Vec2ForCTC|false|false|AUDIO_TO_TEXT",
      "hubert|HubertForCTC|false|false|AUDIO_TO_TEXT",
      "nemotronh_nano_vl|NemotronH_Nano_VL|true|false|IMAGE_TEXT_TO_TEXT TEXT_TO_TEXT AUDIO_TO_TEXT",
  })
  void capabilities(String type, String arch, boolean vision, boolean embedding, String expected) {
    assertThat(ModelMetadataCapabilities.ofModel(type, arch, vision, embedding))
        .containsExactlyElementsOf(List.of(expected.split(" ")));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "StableDiffusionXLPipeline, TEXT_TO_IMAGE",
      "QwenImagePipeline, TEXT_TO_IMAGE",
      "QwenImageEditPlusPipeline, IMAGE_TEXT_TO_IMAGE",
      "StableDiffusionInpaintPipeline, IMAGE_TEXT_TO_IMAGE",
      "WanPipeline, TEXT_TO_IMAGE",
      "TextToVideoSDPipeline, TEXT_TO_VIDEO",
      "WanImageToVideoPipeline, TEXT_TO_IMAGE",
      "StableVideoDiffusionPipeline, IMAGE_TEXT_TO_VIDEO",
      "FluxPipeline, TEXT_TO_IMAGE",
  })
  void pipelineCapabilities(String className, String expected) {
    assertThat(ModelMetadataCapabilities.ofPipeline(className)).containsExactly(expected);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "{'model_type':'llava','text_config':{}}|true",
      "{'model_type':'custom','vision_config':{}}|true",
      "{'model_type':'phi3_v','img_processor':{'name':'clip_vision_model'}}|true",
      "{'model_type':'phi3_v'}|false",
      "{'model_type':'llama'}|false",
  })
  void vision(String json, boolean expected) throws IOException {
    assertThat(config(json).hasVision()).isEqualTo(expected);
  }

  private static ModelConfig config(String json) throws IOException {
    return new ModelConfig((ObjectNode) JSON.readTree(json.replace('\'', '"')));
  }
}
