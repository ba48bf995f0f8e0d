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

  static Result parse(String path, byte[] body) {
    JsonNode node;
    try {
      node = JSON.readTree(body);
    } catch (java.io.IOException e) {
      return refused("unmarshal");
    }
    if (node == null || node.isMissingNode() || !(node instanceof ObjectNode o)) {
      return refused("not an object");
    }
    LlmRequestBody.Api api = LlmRequestBody.Api.fromPath(path);
    boolean ok = switch (api) {
      case CONVERSATIONS -> nonEmptyArray(o.get("items"));
      case RESPONSES, EMBEDDINGS -> o.get("input") != null && !o.get("input").isNull();
      case CHAT_COMPLETIONS -> nonEmptyArray(o.get("messages"));
      case COMPLETIONS -> nonEmptyPrompt(o.get("prompt"));
    };
    JsonNode model = o.get("model");
    if (!ok || model == null || !model.isTextual()) {
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
    return new Result(null, o, model.textValue(), s != null && s.isBoolean() && s.booleanValue(),
        salt != null && salt.isTextual() ? salt.textValue() : "", max, userInput(api, o));
  }

  private static Result refused(String why) {
    return new Result(why, null, null, false, "", 0, null);
  }

  private static byte[] userInput(LlmRequestBody.Api api, ObjectNode json) {
    try {
      return switch (api) {
        case CONVERSATIONS -> WRITER.writeValueAsBytes(json.get("items"));
        case RESPONSES -> {
          ArrayNode combined = WRITER.createArrayNode();
          if (json.hasNonNull("instructions")) {
            combined.addObject().set("instructions", json.get("instructions"));
          }
          if (json.hasNonNull("tools")) {
            combined.addObject().set("tools", json.get("tools"));
          }
          combined.addObject().set("input", json.get("input"));
          yield WRITER.writeValueAsBytes(combined);
        }
        case CHAT_COMPLETIONS -> WRITER.writeValueAsBytes(json.get("messages"));
        case COMPLETIONS -> promptText(json.get("prompt")).getBytes(StandardCharsets.UTF_8);
        case EMBEDDINGS -> WRITER.writeValueAsBytes(json.get("input"));
      };
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      return new byte[0];
    }
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
