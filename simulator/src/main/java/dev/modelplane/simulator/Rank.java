package dev.modelplane.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.common.kvevents.KvEventPublisher;
import dev.modelplane.common.kvevents.KvEventsConfig;
import dev.modelplane.common.request.RequestIds;
import dev.modelplane.common.tokenizer.ModelTokenizer;
import dev.modelplane.common.tokenizer.Tokens;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One data-parallel rank: its engine, metrics, adapters and failure injection, and the request logic that sits
 * between HTTP and the engine (validation, prompt building, output decision).
 */
final class Rank {
  static final ObjectMapper JSON = new ObjectMapper();

  final int index;
  final SimulatorConfig config;
  final EngineMetrics metrics;
  final EngineLoop engine;
  final LoraAdapters adapters = new LoraAdapters();
  final ModelTokenizer tokenizer;
  private final FailureInjector failures;
  private final SplittableRandom random;
  private final List<String> servedNames;
  private final long startNanos = System.nanoTime();
  private final long created = System.currentTimeMillis() / 1000;
  private KvEventPublisher kvEvents;

  Rank(int index, SimulatorConfig config, long seed) {
    this(index, config, seed, new ModelClock(config.timeScale()));
  }

  /** A rank whose engine reads model time from {@code clock} (a {@link VirtualClock} for a virtual run). */
  Rank(int index, SimulatorConfig config, long seed, ModelClock clock) {
    this.index = index;
    this.config = config;
    this.servedNames = config.servedNames();
    this.tokenizer = config.tokenizer();
    this.metrics = new EngineMetrics(servedNames.get(0), config.blockSize(), config.kvCacheSize(),
        config.maxModelLen(), config.enableKvcache());
    this.engine = EngineLoop.create(config, metrics, clock, seed * 31 + index);
    this.failures = new FailureInjector(config.failureInjectionRate(), config.failureTypes(), config.model(),
        seed * 17 + index);
    this.random = new SplittableRandom(seed * 13 + index);
    for (String spec : config.loraModules()) {
      adapters.add(LoraAdapters.parse(spec, config.model()));
    }
  }

  /**
   * Starts the engine, and the KV-event publisher of this rank when events are enabled (vLLM's ports plus the rank;
   * a wildcard address narrowed to {@code --host} when that is one address).
   *
   * @throws org.zeromq.ZMQException when the publisher cannot bind its address
   */
  void start() {
    KvEventsConfig events = config.kvEvents();
    if (events.publishes()) {
      kvEvents = new KvEventPublisher(events.forRank(index), config.kvEventsLayout(), index,
          () -> System.currentTimeMillis() / 1000.0, config.host());
    }
    engine.start("modelplane-sim-engine-" + index, kvEvents);
  }

  void stop() {
    engine.stop();
    if (kvEvents != null) {
      kvEvents.close();
    }
  }

  /** True once {@code --startup-duration} has passed (wall time). */
  boolean ready() {
    return System.nanoTime() - startNanos >= config.startupDuration().toNanos();
  }

  /**
   * Whether {@code model} names the base model (true) or an adapter (false); an unknown name is the base model
   * with {@code --accept-any-model}, else a 404.
   */
  private boolean checkModel(String model) throws CompletionRequest.RequestException {
    if (servedNames.contains(model)) {
      return true;
    }
    if (adapters.contains(model)) {
      return false;
    }
    if (config.acceptAnyModel()) {
      return true;
    }
    throw new CompletionRequest.RequestException(ApiError.modelNotFound("The model `" + model + "` does not exist."));
  }

  /** A request ready for the engine. */
  record Prepared(CompletionRequest request, String model, int promptTokens,
      TextGenerator.Output output, int maxTokens, String adapter, int[] promptIds) {
  }

  /** Validates and decides a request's output; throws with the error to send. */
  Prepared prepare(CompletionRequest r) throws CompletionRequest.RequestException {
    ApiError injected = failures.next();
    if (injected != null) {
      throw new CompletionRequest.RequestException(injected);
    }
    String model = r.model() == null ? servedNames.get(0) : r.model();
    String adapter = checkModel(model) ? null : model;
    if (adapter == null && !servedNames.contains(model)) {
      model = servedNames.get(0);
    }
    // As vLLM: a completion prompt gets the tokenizer's special tokens (BOS), a rendered chat has them already.
    int[] ids = r.promptIds() != null ? r.promptIds() : tokenizer.encode(r.prompt(), !r.chat());
    int maxLen = config.maxModelLen();
    if (ids.length >= maxLen || r.maxTokens() != null && ids.length + r.maxTokens() > maxLen) {
      String what = r.chat() ? "messages" : "prompt";
      throw new CompletionRequest.RequestException(new ApiError(400, "This model's maximum context length is "
          + maxLen + " tokens. However, you requested " + (ids.length + (r.maxTokens() == null ? 0 : r.maxTokens()))
          + " tokens (" + ids.length + " in the " + what + ", " + (r.maxTokens() == null ? 0 : r.maxTokens())
          + " in the completion). Please reduce the length of the " + what + " or completion.", what,
          "context_length_exceeded"));
    }
    int maxTokens = r.maxTokens() != null ? r.maxTokens() : maxLen - ids.length;
    TextGenerator.Output out;
    synchronized (random) {
      out = TextGenerator.generate(tokenizer, config.mode(), r.echoSource(), maxTokens, r.maxTokens() != null,
          r.ignoreEos(), r.stop(), random);
    }
    long blocks = ((long) ids.length + out.tokens().size() + engine.blockSize() - 1) / engine.blockSize();
    if (blocks > engine.maxBlocks()) {
      throw new CompletionRequest.RequestException(ApiError.badRequest("The request needs " + blocks
          + " KV cache blocks but the cache has only " + engine.maxBlocks() + "."));
    }
    return new Prepared(r, model, ids.length, out, maxTokens, adapter, ids);
  }

  /**
   * A pooling request (embeddings, rerank, score): each input is prefilled as an engine request of its own, as vLLM
   * runs them, and {@code answer} is sent once all are.
   *
   * @param adapter the LoRA adapter the request names, or null
   * @param prompts the token ids of each input
   * @param answer the response body
   */
  record Pooled(String adapter, List<int[]> prompts, String answer) {
  }

  /** The model a request names ({@code model} when a string), else the first served name. */
  String modelOf(JsonNode body) {
    return body.path("model").isTextual() ? body.get("model").asText() : servedNames.get(0);
  }

  /**
   * Checks a pooling request as {@link #prepare} checks a completion (injected failures, the model, each input
   * within the context length and the cache); returns the adapter it names, or null.
   */
  String poolingAdapter(String model, List<int[]> prompts) throws CompletionRequest.RequestException {
    ApiError injected = failures.next();
    if (injected != null) {
      throw new CompletionRequest.RequestException(injected);
    }
    String adapter = checkModel(model) ? null : model;
    for (int[] ids : prompts) {
      if (ids.length >= config.maxModelLen()) {
        throw new CompletionRequest.RequestException(new ApiError(400, "This model's maximum context length is "
            + config.maxModelLen() + " tokens. However, you requested " + ids.length + " tokens in the input. "
            + "Please reduce the length of the input.", "input", "context_length_exceeded"));
      }
      if ((ids.length + engine.blockSize()) / engine.blockSize() > engine.maxBlocks()) {
        throw new CompletionRequest.RequestException(ApiError.badRequest("An input needs more KV cache blocks than "
            + "the cache has (" + engine.maxBlocks() + ")."));
      }
    }
    return adapter;
  }

  String newId(String prefix) {
    synchronized (random) {
      return RequestIds.prefixed(prefix, random);
    }
  }

  long created() {
    return System.currentTimeMillis() / 1000;
  }

  // ---- small endpoints --------------------------------------------------------------------------------

  String modelsJson() {
    ObjectNode root = JSON.createObjectNode().put("object", "list");
    ArrayNode data = root.putArray("data");
    for (String name : servedNames) {
      data.addObject().put("id", name).put("object", "model").put("created", created).put("owned_by", "vllm")
          .put("root", config.model()).putNull("parent").put("max_model_len", config.maxModelLen())
          .putArray("permission");
    }
    for (LoraAdapters.Adapter a : adapters.list()) {
      data.addObject().put("id", a.name()).put("object", "model").put("created", a.created()).put("owned_by", "vllm")
          .put("root", a.path()).put("parent", a.baseModel()).put("max_model_len", config.maxModelLen())
          .putArray("permission");
    }
    return root.toString();
  }

  /** vLLM's {@code /tokenize}: special tokens by default for a prompt, not for messages (the template has them). */
  String tokenizeJson(JsonNode body) throws CompletionRequest.RequestException {
    String text;
    boolean special;
    if (body.has("messages")) {
      text = CompletionRequest.parse(body, true, tokenizer).prompt();
      special = body.path("add_special_tokens").asBoolean(false);
    } else if (body.path("prompt").isTextual()) {
      text = body.get("prompt").asText();
      special = body.path("add_special_tokens").asBoolean(true);
    } else {
      throw new CompletionRequest.RequestException(ApiError.badRequest("'prompt' (a string) or 'messages' is required.",
          "prompt"));
    }
    String model = body.path("model").asText(servedNames.get(0));
    checkModel(model);
    Tokens t = tokenizer.tokenize(text, special);
    ObjectNode root = JSON.createObjectNode().put("count", t.size()).put("max_model_len", config.maxModelLen());
    ArrayNode tokens = root.putArray("tokens");
    for (int id : t.ids()) {
      tokens.add(id);
    }
    if (body.path("return_token_strs").asBoolean(false)) {
      ArrayNode strs = root.putArray("token_strs");
      t.tokens().forEach(strs::add);
    } else {
      root.putNull("token_strs");
    }
    return root.toString();
  }

  /**
   * vLLM's {@code /detokenize}. The simulator's tokenizers only encode, so each id reads back as {@code t<id>}, the
   * text it gives token-id prompts.
   */
  String detokenizeJson(JsonNode body) throws CompletionRequest.RequestException {
    JsonNode tokens = body.get("tokens");
    boolean ids = tokens != null && tokens.isArray();
    StringBuilder text = new StringBuilder();
    for (JsonNode t : ids ? tokens : JSON.createArrayNode()) {
      ids &= t.isIntegralNumber();
      text.append(text.isEmpty() ? "" : " ").append('t').append(t.asLong());
    }
    if (!ids) {
      throw new CompletionRequest.RequestException(ApiError.badRequest("'tokens' must be a list of token ids.",
          "tokens"));
    }
    checkModel(modelOf(body));
    return JSON.createObjectNode().put("prompt", text.toString()).toString();
  }

  /**
   * vLLM's render endpoints ({@code POST /v1/chat/completions/render}, {@code /v1/completions/render}): the token ids
   * the engine would run for a request, without running it. The ids are exactly those that {@link #prepare} feeds
   * the KV cache (a chat rendered by the template, no BOS added again; a text prompt with BOS), so a router that
   * tokenizes through this endpoint hashes the same blocks as the KV events. A chat answers one object, a
   * completion a list with one object per prompt (a string, a list of strings, token ids, or a list of those).
   */
  String renderJson(JsonNode body, boolean chat) throws CompletionRequest.RequestException {
    if (!body.isObject()) {
      throw new CompletionRequest.RequestException(ApiError.badRequest("The request body must be a JSON object."));
    }
    String model = body.path("model").asText(servedNames.get(0));
    checkModel(model);
    if (chat) {
      CompletionRequest r = CompletionRequest.parse(body, true, tokenizer);
      return rendered(JSON.createObjectNode(), model, tokenizer.encode(r.prompt(), false)).toString();
    }
    JsonNode prompt = body.get("prompt");
    List<int[]> prompts = new java.util.ArrayList<>();
    if (prompt != null && prompt.isTextual()) {
      prompts.add(tokenizer.encode(prompt.asText(), true));
    } else if (prompt != null && prompt.isArray() && !prompt.isEmpty() && prompt.get(0).isIntegralNumber()) {
      prompts.add(ids(prompt));
    } else if (prompt != null && prompt.isArray() && !prompt.isEmpty()) {
      for (JsonNode item : prompt) {
        if (item.isTextual()) {
          prompts.add(tokenizer.encode(item.asText(), true));
        } else if (item.isArray() && !item.isEmpty() && item.get(0).isIntegralNumber()) {
          prompts.add(ids(item));
        } else {
          prompts = null;
          break;
        }
      }
    } else {
      prompts = null;
    }
    if (prompts == null) {
      throw new CompletionRequest.RequestException(ApiError.badRequest(
          "'prompt' must be a string, token ids, or a non-empty list of either.", "prompt"));
    }
    ArrayNode out = JSON.createArrayNode();
    for (int[] ids : prompts) {
      rendered(out.addObject(), model, ids);
    }
    return out.toString();
  }

  private static ObjectNode rendered(ObjectNode node, String model, int[] ids) {
    ArrayNode tokens = node.put("model", model).putArray("token_ids");
    for (int id : ids) {
      tokens.add(id);
    }
    return node;
  }

  static int[] ids(JsonNode arr) {
    int[] out = new int[arr.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = arr.get(i).asInt();
    }
    return out;
  }
}
