package dev.modelplane.router.tokenize;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.common.tokenizer.ChatMessage;
import dev.modelplane.common.tokenizer.ChatRequests;
import dev.modelplane.common.tokenizer.ModelTokenizer;
import dev.modelplane.common.tokenizer.TokenizerCache;
import dev.modelplane.common.tokenizer.WordTokenizer;
import dev.modelplane.router.plugin.PromptTokenizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The router's tokenizers, from {@code --tokenizer} flags: {@code MODEL=SOURCE} for one model (or LoRA adapter) name,
 * or a bare {@code SOURCE} for every model without its own. A source is a model directory or {@code tokenizer.json}
 * (Hugging Face's format, with the chat template of {@code tokenizer_config.json}), or {@code word}, the simulator's
 * built-in tokenizer. Each is loaded when the router starts, so a wrong path stops it with the reason.
 *
 * <p>A completion's prompt is encoded with special tokens, a chat's messages rendered by the model's chat template
 * (with the generation prompt unless the request turns it off) and encoded without them, as vLLM does. A prompt
 * that cannot be rendered (a template that raises, a malformed body, or fields this renderer does not pass to the
 * template: {@code tools}, {@code documents}, {@code chat_template_kwargs}, {@code continue_final_message}, a
 * request's own {@code chat_template}) gives no tokens: the scorer then falls back on the approximate index, and the
 * reason is logged once per model.
 */
public final class ModelTokenizers implements PromptTokenizer {
  private static final Logger LOG = LoggerFactory.getLogger(ModelTokenizers.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String EVERY_MODEL = "*";
  private static final List<String> UNRENDERED = List.of("tools", "documents", "chat_template_kwargs",
      "continue_final_message", "chat_template");

  private final Map<String, ModelTokenizer> byModel;
  private final Set<String> warned = ConcurrentHashMap.newKeySet();

  private ModelTokenizers(Map<String, ModelTokenizer> byModel) {
    this.byModel = Map.copyOf(byModel);
  }

  /**
   * Reads the flags' values; empty gives {@link PromptTokenizer#NONE}.
   *
   * @throws IllegalArgumentException naming the flag's value, when a source cannot be loaded or a model is given
   *     twice
   */
  public static PromptTokenizer parse(List<String> specs, TokenizerCache cache) {
    if (specs == null || specs.isEmpty()) {
      return NONE;
    }
    Map<String, ModelTokenizer> byModel = new LinkedHashMap<>();
    for (String spec : specs) {
      int eq = spec.indexOf('=');
      String model = eq < 0 ? EVERY_MODEL : spec.substring(0, eq).strip();
      String source = (eq < 0 ? spec : spec.substring(eq + 1)).strip();
      if (model.isEmpty() || source.isEmpty()) {
        throw new IllegalArgumentException("--tokenizer " + spec + ": expected MODEL=SOURCE or SOURCE, where SOURCE "
            + "is a model directory, a tokenizer.json or 'word'");
      }
      if (byModel.containsKey(model)) {
        throw new IllegalArgumentException("--tokenizer " + spec + ": "
            + (model.equals(EVERY_MODEL) ? "a tokenizer for every model" : "model " + model) + " is given twice");
      }
      byModel.put(model, load(spec, source, cache));
    }
    return new ModelTokenizers(byModel);
  }

  private static ModelTokenizer load(String spec, String source, TokenizerCache cache) {
    if (source.equals("word")) {
      return WordTokenizer.INSTANCE;
    }
    Path path = Path.of(source);
    if (!Files.exists(path)) {
      throw new IllegalArgumentException("--tokenizer " + spec + ": " + path + " does not exist");
    }
    try {
      return cache.get(path);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("--tokenizer " + spec + ": " + e.getMessage(), e);
    }
  }

  /** The tokenizer for {@code model}: its own, else the one for every model, else null. */
  ModelTokenizer forModel(String model) {
    ModelTokenizer t = model == null ? null : byModel.get(model);
    return t != null ? t : byModel.get(EVERY_MODEL);
  }

  /**
   * The first field of a chat request that the server's template would render but this one is not given, or null.
   * Such a prompt would hash differently from the server's, so it is not tokenized at all.
   */
  private static String unrendered(JsonNode body) {
    for (String field : UNRENDERED) {
      JsonNode v = body.get(field);
      if (v != null && !v.isNull() && !(v.isContainerNode() && v.isEmpty()) && !(v.isBoolean() && !v.asBoolean())) {
        return field;
      }
    }
    return null;
  }

  @Override
  public int[] tokenize(String model, Prompt prompt) {
    ModelTokenizer tokenizer = forModel(model);
    if (tokenizer == null) {
      return null;
    }
    try {
      return switch (prompt) {
        case Completion c -> tokenizer.encode(c.text(), true);
        case Chat c -> {
          JsonNode body = JSON.readTree(c.requestJson());
          String unrendered = unrendered(body);
          if (unrendered != null) {
            throw new IllegalArgumentException("the chat template is not given the request's " + unrendered);
          }
          List<ChatMessage> messages = ChatRequests.messages(body);
          yield ChatRequests.addGenerationPrompt(body) ? tokenizer.encodeChat(messages)
              : tokenizer.encode(tokenizer.renderChat(messages, false), false);
        }
      };
    } catch (IOException | RuntimeException e) {
      if (warned.add(model)) {
        LOG.atWarn().addKeyValue("model", model).addKeyValue("tokenizer", tokenizer.name())
            .addKeyValue("reason", e.getMessage()).log("cannot tokenize a prompt; it is scored without tokens");
      }
      return null;
    }
  }
}
