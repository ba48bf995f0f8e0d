package dev.modelplane.router.request;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.router.scheduling.LlmRequestBody;
import java.nio.charset.StandardCharsets;

/**
 * The request parser as it was when it built a Jackson tree of the whole body: the oracle the streaming parser is
 * compared with (same acceptance, same fields, same prefix-cache input, same body after a model rewrite).
 */
final class TreeReference {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper WRITER = new ObjectMapper();

  static {
    JSON.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
        .maxStringLength(Integer.MAX_VALUE).maxNestingDepth(256).build());
  }

  /** What the tree parser made of a body: {@code error} set when it refused it. */
  record Result(String error, ObjectNode json, String model, boolean stream, String cacheSalt, int maxOutputTokens,
      byte[] userInput) {
    JsonNode rewritten(String target) {
      ObjectNode copy = json.deepCopy();
      copy.put("model", target);
      return copy;
    }
  }

  private static final ObjectMapper STRICT = new ObjectMapper();

  static {
    STRICT.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
        .maxStringLength(Integer.MAX_VALUE).maxNestingDepth(256).build());
    STRICT.enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
  }

  private TreeReference() {
  }

  /**
   * Whether some object of the body names a member twice. A tree keeps the last; the streaming parser hashes the
   * prefix-cache input as received (both are valid readings), so only such bodies may hash differently.
   */
  static boolean hasDuplicateKeys(byte[] body) {
    try {
      STRICT.readTree(body);
      return false;
    } catch (java.io.IOException e) {
      return e.getMessage() != null && e.getMessage().startsWith("Duplicate field");
    }
  }

  /**
   * The API of a POST to {@code path}, by the longest matching suffix of a table written out here (not the router's
   * registry); {@code PASSTHROUGH} for none.
   */
  static LlmRequestBody.Api api(String path) {
    String p = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
    p = p.replaceAll("/+$", "");
    LlmRequestBody.Api best = LlmRequestBody.Api.PASSTHROUGH;
    int longest = -1;
    for (var e : SUFFIXES.entrySet()) {
      if (p.endsWith("/" + e.getKey()) && e.getKey().length() > longest) {
        best = e.getValue();
        longest = e.getKey().length();
      }
    }
    return best;
  }

  private static final java.util.Map<String, LlmRequestBody.Api> SUFFIXES = java.util.Map.ofEntries(
      java.util.Map.entry("conversations", LlmRequestBody.Api.CONVERSATIONS),
      java.util.Map.entry("responses", LlmRequestBody.Api.RESPONSES),
      java.util.Map.entry("chat/completions", LlmRequestBody.Api.CHAT_COMPLETIONS),
      java.util.Map.entry("chat/completions/render", LlmRequestBody.Api.CHAT_COMPLETIONS),
      java.util.Map.entry("completions", LlmRequestBody.Api.COMPLETIONS),
      java.util.Map.entry("completions/render", LlmRequestBody.Api.COMPLETIONS),
      java.util.Map.entry("embeddings", LlmRequestBody.Api.EMBEDDINGS),
      java.util.Map.entry("v1/messages", LlmRequestBody.Api.MESSAGES),
      java.util.Map.entry("v1/messages/count_tokens", LlmRequestBody.Api.PASSTHROUGH),
      java.util.Map.entry("rerank", LlmRequestBody.Api.RERANK),
      java.util.Map.entry("score", LlmRequestBody.Api.SCORE),
      java.util.Map.entry("tokenize", LlmRequestBody.Api.TOKENIZE),
      java.util.Map.entry("detokenize", LlmRequestBody.Api.DETOKENIZE),
      java.util.Map.entry("audio/transcriptions", LlmRequestBody.Api.AUDIO),
      java.util.Map.entry("audio/translations", LlmRequestBody.Api.AUDIO));

  /** Whether a request of {@code api} without a string model is refused. */
  static boolean requiresModel(LlmRequestBody.Api api) {
    return switch (api) {
      case CONVERSATIONS, RESPONSES, CHAT_COMPLETIONS, COMPLETIONS, EMBEDDINGS, MESSAGES -> true;
      default -> false;
    };
  }

  static Result parse(String path, byte[] body) {
    LlmRequestBody.Api api = api(path);
    JsonNode node;
    try {
      node = JSON.readTree(body);
    } catch (java.io.IOException e) {
      return passedThrough(api) ? opaque() : refused("unmarshal");
    }
    if (node == null || node.isMissingNode() || !(node instanceof ObjectNode o)) {
      return passedThrough(api) ? opaque() : refused("not an object");
    }
    boolean ok = switch (api) {
      case CONVERSATIONS -> nonEmptyArray(o.get("items"));
      case RESPONSES, EMBEDDINGS -> o.get("input") != null && !o.get("input").isNull();
      case CHAT_COMPLETIONS, MESSAGES -> nonEmptyArray(o.get("messages"));
      case COMPLETIONS -> nonEmptyPrompt(o.get("prompt"));
      case RERANK -> o.hasNonNull("query") && o.hasNonNull("documents");
      case SCORE -> scorePair(o) != null;
      case TOKENIZE -> o.hasNonNull("prompt") || o.hasNonNull("messages");
      case DETOKENIZE -> o.hasNonNull("tokens");
      case AUDIO, PASSTHROUGH -> true;
    };
    JsonNode model = o.get("model");
    boolean named = model != null && model.isTextual();
    if (!ok || requiresModel(api) && !named) {
      return refused("invalid");
    }
    JsonNode s = o.get("stream");
    JsonNode salt = o.get("cache_salt");
    int max = 0;
    for (String field : new String[] {"max_completion_tokens", "max_tokens", "max_output_tokens"}) {
      JsonNode v = o.get(field);
      if (v != null && v.isIntegralNumber() && v.intValue() > 0) {
        max = v.intValue();
        break;
      }
    }
    boolean render = path.replaceAll("[?].*", "").replaceAll("/+$", "").endsWith("/render");
    return new Result(null, o, named ? model.textValue() : "", s != null && s.isBoolean() && s.booleanValue(),
        salt != null && salt.isTextual() ? salt.textValue() : "", max, render ? new byte[0] : userInput(api, o));
  }

  /** A body no parser reads as JSON: passed through without a model. */
  private static boolean passedThrough(LlmRequestBody.Api api) {
    return api == LlmRequestBody.Api.AUDIO || api == LlmRequestBody.Api.PASSTHROUGH;
  }

  private static Result opaque() {
    return new Result(null, null, "", false, "", 0, new byte[0]);
  }

  private static Result refused(String why) {
    return new Result(why, null, null, false, "", 0, null);
  }

  private static byte[] userInput(LlmRequestBody.Api api, ObjectNode json) {
    try {
      return switch (api) {
        case CONVERSATIONS -> WRITER.writeValueAsBytes(json.get("items"));
        case RESPONSES -> combined(json, 2, "instructions", "tools", "input");
        case CHAT_COMPLETIONS -> WRITER.writeValueAsBytes(json.get("messages"));
        case COMPLETIONS -> promptText(json.get("prompt")).getBytes(StandardCharsets.UTF_8);
        case EMBEDDINGS -> WRITER.writeValueAsBytes(json.get("input"));
        case MESSAGES -> combined(json, 2, "system", "tools", "messages");
        case RERANK -> combined(json, 0, "query", "documents");
        case SCORE -> combined(json, 0, scorePair(json));
        case TOKENIZE, DETOKENIZE, AUDIO, PASSTHROUGH -> new byte[0];
      };
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      return new byte[0];
    }
  }

  /** The first of vLLM's four score request forms whose two members are present and not null. */
  private static String[] scorePair(ObjectNode o) {
    for (String[] pair : new String[][] {{"queries", "documents"}, {"queries", "items"}, {"data_1", "data_2"},
        {"text_1", "text_2"}}) {
      if (o.hasNonNull(pair[0]) && o.hasNonNull(pair[1])) {
        return pair;
      }
    }
    return null;
  }

  /** {@code [{"<name>":…},…]}, the first {@code optional} members only when present and not null. */
  private static byte[] combined(ObjectNode json, int optional, String... names)
      throws com.fasterxml.jackson.core.JsonProcessingException {
    ArrayNode combined = WRITER.createArrayNode();
    for (int i = 0; i < names.length; i++) {
      if (i >= optional || json.hasNonNull(names[i])) {
        combined.addObject().set(names[i], json.get(names[i]));
      }
    }
    return WRITER.writeValueAsBytes(combined);
  }

  private static String promptText(JsonNode prompt) {
    if (prompt == null || prompt.isNull()) {
      return "";
    }
    if (prompt.isTextual()) {
      return prompt.textValue();
    }
    if (prompt.isArray()) {
      StringBuilder sb = new StringBuilder();
      for (JsonNode part : prompt) {
        if (part.isTextual()) {
          if (!sb.isEmpty()) {
            sb.append(' ');
          }
          sb.append(part.textValue());
        }
      }
      return sb.toString();
    }
    return "";
  }

  private static boolean nonEmptyArray(JsonNode n) {
    return n != null && n.isArray() && !n.isEmpty();
  }

  private static boolean nonEmptyPrompt(JsonNode n) {
    if (n == null || n.isNull()) {
      return false;
    }
    if (n.isTextual()) {
      return !n.textValue().isEmpty();
    }
    return n.isArray() && !n.isEmpty();
  }
}
