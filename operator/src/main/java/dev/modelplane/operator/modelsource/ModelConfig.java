package dev.modelplane.operator.modelsource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A Hugging Face {@code config.json} and what OME reads from it. OME has one loader per model family; their
 * differences that matter are kept here as data (which keys give the context length, which families are
 * multimodal), and its generic loader's rules apply to every other family.
 *
 * @param root the parsed file
 */
public record ModelConfig(ObjectNode root) {
  /** Sub-configurations where multimodal models keep their language model's settings, in OME's order. */
  static final List<String> NESTED_LANGUAGE_CONFIGS = List.of("text_config", "llm_config", "language_config");
  /** Context-length keys every model is tried for, after its family's own (OME's generic loader and beyond). */
  private static final List<String> CONTEXT_KEYS = List.of("max_position_embeddings",
      "text_config.max_position_embeddings", "llm_config.max_position_embeddings",
      "language_config.max_position_embeddings", "max_sequence_length", "seq_length", "max_seq_len", "n_positions",
      "model_max_length");
  /** Families whose OME loader reads the context length from another key first. */
  private static final Map<String, List<String>> FAMILY_CONTEXT_KEYS = Map.ofEntries(
      Map.entry("baichuan", List.of("model_max_length")),
      Map.entry("chatglm", List.of("seq_length")),
      Map.entry("dbrx", List.of("max_seq_len")),
      Map.entry("qwen", List.of("seq_length")),
      Map.entry("qwen2", List.of("seq_length")),
      Map.entry("qwen3", List.of("seq_length")),
      Map.entry("qwen3_moe", List.of("seq_length")),
      Map.entry("llava", List.of("text_config.max_position_embeddings")),
      Map.entry("mllama", List.of("text_config.max_position_embeddings")),
      Map.entry("llama4", List.of("text_config.max_position_embeddings")),
      Map.entry("gemma3", List.of("text_config.max_position_embeddings")),
      Map.entry("qwen3_vl", List.of("text_config.max_position_embeddings")),
      Map.entry("qwen3_vl_moe", List.of("text_config.max_position_embeddings")),
      Map.entry("deepseek_vl_v2", List.of("language_config.max_position_embeddings")));
  /** Families OME's loaders always treat as image-and-text models. */
  private static final Set<String> VISION_FAMILIES = Set.of("llava", "mllama", "gemma3", "qwen2_vl", "qwen2_5_vl",
      "qwen3_vl", "qwen3_vl_moe", "qwen3_5", "qwen3_5_moe", "deepseek_vl_v2", "janus", "multi_modality");
  /** Bytes per parameter by {@code torch_dtype}, as OME's table has them. */
  private static final Map<String, Double> DTYPE_BYTES = Map.ofEntries(Map.entry("float32", 4.0),
      Map.entry("float", 4.0), Map.entry("bfloat16", 2.0), Map.entry("bf16", 2.0), Map.entry("float16", 2.0),
      Map.entry("fp16", 2.0), Map.entry("half", 2.0), Map.entry("int8", 1.0), Map.entry("fp8", 1.0),
      Map.entry("float8", 1.0), Map.entry("e4m3", 1.0), Map.entry("int4", 0.5), Map.entry("4bit", 0.5));

  public ModelConfig {
    Objects.requireNonNull(root);
  }

  /** {@code model_type}, e.g. {@code llama}; empty when absent. */
  public String modelType() {
    return root.path("model_type").asText("");
  }

  /** The first entry of {@code architectures}, e.g. {@code LlamaForCausalLM}; empty when absent. */
  public String architecture() {
    return root.path("architectures").path(0).asText("");
  }

  /** {@code transformers_version}, or the language sub-configuration's; empty when absent. */
  public String transformersVersion() {
    return topOrNested("transformers_version");
  }

  /** {@code torch_dtype} (or {@code dtype}, its newer name), or the language sub-configuration's. */
  public String torchDtype() {
    String dtype = topOrNested("torch_dtype");
    return dtype.isEmpty() ? topOrNested("dtype") : dtype;
  }

  /** Bytes per parameter of {@link #torchDtype()}, when OME's table knows it. */
  public Optional<Double> bytesPerParameter() {
    return Optional.ofNullable(DTYPE_BYTES.get(torchDtype().toLowerCase(Locale.ROOT)));
  }

  /**
   * The context length: the family's own key first (e.g. {@code seq_length} for Qwen, {@code text_config.…} for
   * LLaVA and Llama 4), then {@code max_position_embeddings}, the nested language configurations, and the other
   * names models use; the first positive integer wins.
   */
  public OptionalLong contextLength() {
    List<String> family = FAMILY_CONTEXT_KEYS.getOrDefault(modelType(), List.of());
    for (List<String> keys : List.of(family, CONTEXT_KEYS)) {
      for (String key : keys) {
        JsonNode value = key.contains(".") ? root.path(key.substring(0, key.indexOf('.')))
            .path(key.substring(key.indexOf('.') + 1)) : root.path(key);
        if (value.canConvertToExactIntegral() && value.canConvertToLong() && value.asLong() > 0) {
          return OptionalLong.of(value.asLong());
        }
      }
    }
    return OptionalLong.empty();
  }

  /**
   * The quantization method as written: {@code quantization_config.quant_method} (for Llama 4, OME reads
   * {@code quantization_config.fmt} first); empty when the weights are not quantized.
   */
  public String quantizationMethod() {
    JsonNode config = root.path("quantization_config");
    String method = modelType().equals("llama4") ? config.path("fmt").asText("") : "";
    return method.isEmpty() ? config.path("quant_method").asText("") : method;
  }

  /**
   * The quantization OME records: {@code int4} when the method names int4, else {@code fp8} when it names fp8
   * ({@code fbgemm_fp8} included); other methods (awq, gptq, bitsandbytes, mxfp4…) record none.
   */
  public Optional<String> quantization() {
    String method = quantizationMethod().toLowerCase(Locale.ROOT);
    if (method.contains("int4")) {
      return Optional.of("int4");
    }
    return method.contains("fp8") ? Optional.of("fp8") : Optional.empty();
  }

  /** Whether the model reads images: a {@code vision_config}, a multimodal family, or Phi-3-vision's processor. */
  public boolean hasVision() {
    return root.has("vision_config") || VISION_FAMILIES.contains(modelType())
        || modelType().equals("phi3_v") && root.hasNonNull("img_processor");
  }

  /**
   * OME's rough parameter estimate from the dimensions, for when no weights can be counted: embeddings plus 12·h²
   * per layer, or for mixture-of-experts models attention, shared and routed experts and router per layer. Zero
   * dimensions are taken from the nested language configuration.
   */
  public OptionalLong estimatedParameters() {
    long hidden = dimension("hidden_size");
    long layers = dimension("num_hidden_layers");
    if (hidden <= 0 || layers <= 0) {
      return OptionalLong.empty();
    }
    long vocab = dimension("vocab_size");
    long intermediate = dimension("intermediate_size");
    long experts = firstPositive("n_routed_experts", "num_local_experts", "num_experts");
    try {
      if (experts <= 0) {
        return OptionalLong.of(Math.addExact(Math.multiplyExact(vocab, hidden),
            Math.multiplyExact(layers, Math.multiplyExact(12, Math.multiplyExact(hidden, hidden)))));
      }
      long shared = dimension("n_shared_experts");
      long expertSize = dimension("moe_intermediate_size") > 0 ? dimension("moe_intermediate_size") : intermediate;
      long perLayer = Math.addExact(Math.addExact(Math.multiplyExact(4, Math.multiplyExact(hidden, hidden)),
          Math.multiplyExact(shared, Math.multiplyExact(2 * hidden, intermediate))),
          Math.addExact(Math.multiplyExact(experts, Math.multiplyExact(2 * hidden, expertSize)),
              Math.addExact(Math.multiplyExact(hidden, experts), 2 * hidden)));
      return OptionalLong.of(Math.addExact(Math.multiplyExact(hidden, vocab), Math.multiplyExact(layers, perLayer)));
    } catch (ArithmeticException e) {
      return OptionalLong.empty();
    }
  }

  private long firstPositive(String... keys) {
    for (String key : keys) {
      long value = dimension(key);
      if (value > 0) {
        return value;
      }
    }
    return 0;
  }

  /** A positive integer at the top level, else in the first nested language configuration present. */
  private long dimension(String key) {
    JsonNode top = root.path(key);
    if (top.canConvertToExactIntegral() && top.asLong() > 0) {
      return top.asLong();
    }
    JsonNode nested = nestedLanguageConfig().path(key);
    return nested.canConvertToExactIntegral() && nested.asLong() > 0 ? nested.asLong() : 0;
  }

  private String topOrNested(String key) {
    String top = root.path(key).asText("");
    return top.isEmpty() ? nestedLanguageConfig().path(key).asText("") : top;
  }

  /** OME probes only the first of the nested configurations that is present. */
  private JsonNode nestedLanguageConfig() {
    return NESTED_LANGUAGE_CONFIGS.stream().map(root::path).filter(JsonNode::isObject).findFirst()
        .orElse(com.fasterxml.jackson.databind.node.MissingNode.getInstance());
  }
}
