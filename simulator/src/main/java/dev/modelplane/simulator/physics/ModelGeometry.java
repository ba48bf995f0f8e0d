package dev.modelplane.simulator.physics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The shape of a decoder-only transformer, as far as the cost of running it is concerned: what a Hugging Face
 * {@code config.json} says about sizes, attention, experts and number formats. Parameter counts ignore norms and
 * biases (well under 0.1 % of any model here).
 *
 * @param name a label for messages and tables
 * @param hidden {@code hidden_size}
 * @param intermediate {@code intermediate_size} of a dense MLP layer
 * @param layers {@code num_hidden_layers}
 * @param heads {@code num_attention_heads}
 * @param kvHeads {@code num_key_value_heads} (grouped-query attention); equal to {@code heads} when absent
 * @param headDim {@code head_dim}, else hidden / heads
 * @param vocab {@code vocab_size}
 * @param tiedEmbeddings {@code tie_word_embeddings}: the output projection shares the embedding's memory
 * @param maxPositions {@code max_position_embeddings}, the longest context the model supports
 * @param weights number format of the weights
 * @param moe the mixture-of-experts part, or null for a dense model
 * @param mla multi-head latent attention (DeepSeek), or null for grouped-query attention
 */
public record ModelGeometry(String name, int hidden, int intermediate, int layers, int heads, int kvHeads,
    int headDim, int vocab, boolean tiedEmbeddings, int maxPositions, Precision weights, Moe moe, Mla mla) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The expert part of a mixture-of-experts model.
   *
   * @param experts routed experts per MoE layer
   * @param active experts each token is routed to
   * @param expertIntermediate intermediate size of one expert
   * @param sharedIntermediate summed intermediate size of the always-on shared experts (0 when none)
   * @param denseLayers layers that keep a dense MLP of {@code intermediate} instead of experts
   */
  public record Moe(int experts, int active, int expertIntermediate, int sharedIntermediate, int denseLayers) {
  }

  /**
   * Multi-head latent attention: the KV cache holds one compressed latent and a rotary key per token and layer.
   *
   * @param kvLoraRank {@code kv_lora_rank}, the latent's width
   * @param qLoraRank {@code q_lora_rank}, 0 when queries are not compressed
   * @param ropeDim {@code qk_rope_head_dim}
   * @param nopeDim {@code qk_nope_head_dim}
   * @param valueDim {@code v_head_dim}
   */
  public record Mla(int kvLoraRank, int qLoraRank, int ropeDim, int nopeDim, int valueDim) {
  }

  /** How weights (or the KV cache) are stored, and whether matrix products can run in FP8. */
  public enum Precision {
    FP32(4, false), BF16(2, false), FP8(1, true), INT8(1, false), INT4(0.5, false);

    private final double bytes;
    private final boolean fp8Compute;

    Precision(double bytes, boolean fp8Compute) {
      this.bytes = bytes;
      this.fp8Compute = fp8Compute;
    }

    /** Bytes per stored value. */
    public double bytes() {
      return bytes;
    }

    /** Whether matrix products run on FP8 tensor cores (W8A8); otherwise they run in 16-bit. */
    public boolean fp8Compute() {
      return fp8Compute;
    }
  }

  public ModelGeometry {
    List<String> bad = new ArrayList<>();
    positive(bad, "hidden_size", hidden);
    positive(bad, "num_hidden_layers", layers);
    positive(bad, "num_attention_heads", heads);
    positive(bad, "num_key_value_heads", kvHeads);
    positive(bad, "head_dim", headDim);
    positive(bad, "vocab_size", vocab);
    if (moe == null || moe.denseLayers() > 0) {
      positive(bad, "intermediate_size", intermediate);
    }
    if (kvHeads > 0 && heads % kvHeads != 0) {
      bad.add("num_attention_heads (" + heads + ") must be a multiple of num_key_value_heads (" + kvHeads + ")");
    }
    if (moe != null) {
      positive(bad, "the number of experts", moe.experts());
      positive(bad, "num_experts_per_tok", moe.active());
      positive(bad, "moe_intermediate_size", moe.expertIntermediate());
      if (moe.active() > moe.experts()) {
        bad.add("num_experts_per_tok (" + moe.active() + ") exceeds the number of experts (" + moe.experts() + ")");
      }
      if (moe.denseLayers() < 0 || moe.denseLayers() > layers) {
        bad.add("dense layers must be within 0-num_hidden_layers");
      }
    }
    if (!bad.isEmpty()) {
      throw new IllegalArgumentException((name == null ? "model config" : name) + ": " + String.join("; ", bad));
    }
  }

  private static void positive(List<String> bad, String field, int value) {
    if (value <= 0) {
      bad.add(field + " must be a positive integer, got " + value);
    }
  }

  // ---- parameters ---------------------------------------------------------------------------------

  /** Attention projection parameters of one layer (Q, K, V and output). */
  public double attentionParams() {
    if (mla != null) {
      double qk = mla.nopeDim() + mla.ropeDim();
      double q = mla.qLoraRank() > 0 ? (double) hidden * mla.qLoraRank() + (double) mla.qLoraRank() * heads * qk
          : (double) hidden * heads * qk;
      double kvA = (double) hidden * (mla.kvLoraRank() + mla.ropeDim());
      double kvB = (double) mla.kvLoraRank() * heads * (mla.nopeDim() + mla.valueDim());
      return q + kvA + kvB + (double) heads * mla.valueDim() * hidden;
    }
    return (double) hidden * (heads + 2.0 * kvHeads) * headDim + (double) heads * headDim * hidden;
  }

  /** MLP parameters of a dense layer (gate, up, down). */
  public double denseMlpParams() {
    return 3.0 * hidden * intermediate;
  }

  /** Parameters of one routed expert. */
  public double expertParams() {
    return moe == null ? 0 : 3.0 * hidden * moe.expertIntermediate();
  }

  /** Shared-expert and router parameters of one MoE layer. */
  public double moeFixedParams() {
    return moe == null ? 0 : 3.0 * hidden * moe.sharedIntermediate() + (double) hidden * moe.experts();
  }

  /** Layers whose MLP is made of experts. */
  public int moeLayers() {
    return moe == null ? 0 : layers - moe.denseLayers();
  }

  /** Layers with a dense MLP. */
  public int denseLayers() {
    return moe == null ? layers : moe.denseLayers();
  }

  /** Every parameter stored, embeddings included. */
  public double totalParams() {
    double mlp = denseLayers() * denseMlpParams()
        + moeLayers() * (moe == null ? 0 : moe.experts() * expertParams() + moeFixedParams());
    return layers * attentionParams() + mlp + (tiedEmbeddings ? 1 : 2) * (double) vocab * hidden;
  }

  /** Parameters one token goes through (the "active" parameters of a MoE model), without the input embedding. */
  public double activeParams() {
    double mlp = denseLayers() * denseMlpParams()
        + moeLayers() * (moe == null ? 0 : moe.active() * expertParams() + moeFixedParams());
    return layers * attentionParams() + mlp + (double) vocab * hidden;
  }

  /** Bytes of KV cache one token takes in one layer, all heads, at {@code kv} precision. */
  public double kvBytesPerTokenLayer(Precision kv) {
    if (mla != null) {
      return (mla.kvLoraRank() + mla.ropeDim()) * kv.bytes();
    }
    return 2.0 * kvHeads * headDim * kv.bytes();
  }

  /** The number format of an unquantised KV cache: the weights' 16-bit type. */
  public Precision defaultKvPrecision() {
    return weights == Precision.FP32 ? Precision.FP32 : Precision.BF16;
  }

  // ---- Hugging Face config.json -------------------------------------------------------------------

  /** Reads a Hugging Face {@code config.json}. */
  public static ModelGeometry read(Path configJson) throws IOException {
    JsonNode root;
    try {
      root = JSON.readTree(Files.readString(configJson));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException(configJson + " is not valid JSON: " + e.getOriginalMessage());
    }
    String label = configJson.getParent() == null ? configJson.toString()
        : configJson.getParent().getFileName() + "/" + configJson.getFileName();
    return fromConfig(label, root);
  }

  /**
   * The geometry a Hugging Face config describes. A multimodal config's language model is read from its
   * {@code text_config}. Missing optional fields take the transformers defaults (KV heads = heads, head dim =
   * hidden / heads, tied embeddings as PretrainedConfig's default).
   */
  public static ModelGeometry fromConfig(String name, JsonNode root) {
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(name + ": a model config must be a JSON object");
    }
    JsonNode c = root;
    if (!c.has("hidden_size") && root.path("text_config").isObject()) {
      c = root.get("text_config");
    }
    if (!c.has("hidden_size")) {
      throw new IllegalArgumentException(name + ": hidden_size is missing; is this a Hugging Face config.json of a "
          + "decoder-only language model?");
    }
    int hidden = integer(name, c, "hidden_size", 0);
    int heads = integer(name, c, "num_attention_heads", 0);
    int kvHeads = integer(name, c, "num_key_value_heads", heads);
    int headDim = integer(name, c, "head_dim", heads > 0 ? hidden / heads : 0);
    int layers = integer(name, c, "num_hidden_layers", 0);
    int vocab = integer(name, c, "vocab_size", 0);
    boolean tied = c.has("tie_word_embeddings") ? c.get("tie_word_embeddings").asBoolean()
        : root.path("tie_word_embeddings").asBoolean(true);
    int maxPositions = integer(name, c, "max_position_embeddings", 4096);
    Moe moe = moe(name, c, layers);
    Mla mla = c.has("kv_lora_rank") && !c.get("kv_lora_rank").isNull()
        ? new Mla(integer(name, c, "kv_lora_rank", 0), c.path("q_lora_rank").isNull() ? 0
            : integer(name, c, "q_lora_rank", 0), integer(name, c, "qk_rope_head_dim", 0),
            integer(name, c, "qk_nope_head_dim", 0), integer(name, c, "v_head_dim", 0))
        : null;
    int intermediate = c.has("intermediate_size") ? integer(name, c, "intermediate_size", 0) : 0;
    return new ModelGeometry(name, hidden, intermediate, layers, heads, kvHeads, headDim, vocab, tied, maxPositions,
        precision(name, root, c), moe, mla);
  }

  private static Moe moe(String name, JsonNode c, int layers) {
    int experts = 0;
    for (String key : new String[] {"num_local_experts", "num_experts", "n_routed_experts"}) {
      if (c.path(key).isNumber()) {
        experts = integer(name, c, key, 0);
        break;
      }
    }
    if (experts <= 1) {
      return null;
    }
    int active = integer(name, c, "num_experts_per_tok", 2);
    int expertIntermediate = c.has("moe_intermediate_size") ? integer(name, c, "moe_intermediate_size", 0)
        : integer(name, c, "intermediate_size", 0);
    int shared = 0;
    if (c.has("shared_expert_intermediate_size")) {
      shared = integer(name, c, "shared_expert_intermediate_size", 0);
    } else if (c.has("n_shared_experts") && !c.get("n_shared_experts").isNull()) {
      shared = integer(name, c, "n_shared_experts", 0) * expertIntermediate;
    }
    int dense = 0;
    if (c.has("first_k_dense_replace")) {
      dense = integer(name, c, "first_k_dense_replace", 0);
    } else if (c.path("mlp_only_layers").isArray()) {
      dense = c.get("mlp_only_layers").size();
    }
    int step = c.has("decoder_sparse_step") ? integer(name, c, "decoder_sparse_step", 1) : 1;
    if (step > 1) {
      dense = layers - (layers - dense) / step;
    }
    return new Moe(experts, active, expertIntermediate, shared, dense);
  }

  private static Precision precision(String name, JsonNode root, JsonNode c) {
    JsonNode q = root.path("quantization_config");
    if (q.isObject()) {
      String method = q.path("quant_method").asText("").toLowerCase(Locale.ROOT);
      switch (method) {
        case "fp8", "fbgemm_fp8", "modelopt" -> {
          return Precision.FP8;
        }
        case "awq", "gptq", "marlin", "awq_marlin", "gptq_marlin" -> {
          return q.path("bits").asInt(4) >= 8 ? Precision.INT8 : Precision.INT4;
        }
        case "bitsandbytes" -> {
          return q.path("load_in_8bit").asBoolean(false) ? Precision.INT8 : Precision.INT4;
        }
        case "compressed-tensors" -> {
          return compressedTensors(q);
        }
        default -> throw new IllegalArgumentException(name + ": quantization_config.quant_method \"" + method
            + "\" is not modelled; known: fp8, fbgemm_fp8, modelopt, awq, gptq, bitsandbytes, compressed-tensors");
      }
    }
    String dtype = c.path("torch_dtype").asText(c.path("dtype").asText(root.path("torch_dtype").asText("bfloat16")));
    return switch (dtype.toLowerCase(Locale.ROOT)) {
      case "float32" -> Precision.FP32;
      case "bfloat16", "float16", "half", "auto" -> Precision.BF16;
      default -> throw new IllegalArgumentException(name + ": torch_dtype \"" + dtype
          + "\" is not modelled; known: bfloat16, float16, float32");
    };
  }

  private static Precision compressedTensors(JsonNode q) {
    for (JsonNode group : iterable(q.path("config_groups"))) {
      JsonNode w = group.path("weights");
      int bits = w.path("num_bits").asInt(16);
      if (bits <= 4) {
        return Precision.INT4;
      }
      if (bits == 8) {
        boolean floatWeights = "float".equals(w.path("type").asText("int"));
        boolean actQuant = group.path("input_activations").path("num_bits").asInt(16) == 8;
        return floatWeights && actQuant ? Precision.FP8 : Precision.INT8;
      }
    }
    return Precision.BF16;
  }

  private static Iterable<JsonNode> iterable(JsonNode node) {
    List<JsonNode> out = new ArrayList<>();
    node.elements().forEachRemaining(out::add);
    return out;
  }

  private static int integer(String name, JsonNode c, String key, int fallback) {
    JsonNode v = c.get(key);
    if (v == null || v.isNull()) {
      return fallback;
    }
    if (!v.canConvertToInt() || v.isFloatingPointNumber() && v.asDouble() != Math.rint(v.asDouble())) {
      throw new IllegalArgumentException(name + ": " + key + " must be an integer, got " + v);
    }
    return v.asInt();
  }
}
