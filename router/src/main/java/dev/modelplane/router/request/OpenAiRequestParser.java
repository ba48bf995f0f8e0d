package dev.modelplane.router.request;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.router.scheduling.LlmRequestBody;
import java.io.IOException;

/**
 * GIE's {@code openai-parser}: the API comes from the path suffix; the body must be a JSON object carrying what that
 * API requires (chat: non-empty {@code messages}; completions: {@code prompt}; responses and embeddings:
 * {@code input}; conversations: non-empty {@code items}). Everything else is a 400.
 */
public final class OpenAiRequestParser {
  static final ObjectMapper JSON = new ObjectMapper();

  static {
    JSON.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
        .maxStringLength(Integer.MAX_VALUE).maxNestingDepth(256).build());
  }

  private OpenAiRequestParser() {
  }

  public static LlmRequestBody parse(String path, byte[] body) {
    JsonNode node;
    try {
      node = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw new RouterException(ErrorCode.BAD_REQUEST,
          "error unmarshaling request body: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new RouterException(ErrorCode.BAD_REQUEST, "error reading request body: " + e.getMessage());
    }
    if (node == null || node.isMissingNode()) {
      throw new RouterException(ErrorCode.BAD_REQUEST, "error unmarshaling request body: empty body");
    }
    if (!(node instanceof ObjectNode object)) {
      throw new RouterException(ErrorCode.BAD_REQUEST, "error unmarshaling request body: expected a JSON object");
    }
    LlmRequestBody.Api api = LlmRequestBody.Api.fromPath(path);
    switch (api) {
      case CONVERSATIONS -> require(nonEmptyArray(object.get("items")), "invalid conversations request: must have "
          + "items field");
      case RESPONSES -> require(present(object.get("input")), "invalid responses request: must have input field");
      case CHAT_COMPLETIONS -> require(nonEmptyArray(object.get("messages")),
          "invalid chat completions request: must have valid messages field");
      case COMPLETIONS -> require(nonEmptyPrompt(object.get("prompt")),
          "invalid completions request: must have prompt field");
      case EMBEDDINGS -> require(present(object.get("input")), "invalid embeddings request: must have input field");
      default -> throw new RouterException(ErrorCode.BAD_REQUEST, "unsupported API endpoint");
    }
    return new LlmRequestBody(api, object);
  }

  /** The {@code model} field; 400 when absent or not a string. */
  public static String model(LlmRequestBody body) {
    JsonNode model = body.json().get("model");
    if (model == null || !model.isTextual()) {
      throw new RouterException(ErrorCode.BAD_REQUEST, "model not found in request body");
    }
    return model.textValue();
  }

  /** Serialises a (rewritten) body. */
  public static byte[] serialize(ObjectNode json) {
    try {
      return JSON.writeValueAsBytes(json);
    } catch (JsonProcessingException e) {
      throw new RouterException(ErrorCode.INTERNAL, "Error marshalling request body");
    }
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new RouterException(ErrorCode.BAD_REQUEST, message);
    }
  }

  private static boolean present(JsonNode n) {
    return n != null && !n.isNull();
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
