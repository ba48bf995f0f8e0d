package dev.modelplane.router.request;

import dev.modelplane.router.scheduling.LlmRequestBody;
import dev.modelplane.router.scheduling.AcceptedJson;
import dev.modelplane.router.scheduling.RequestJson;

/**
 * GIE's {@code openai-parser}: the API comes from the path suffix; the body must be a JSON object carrying what that
 * API requires (chat: non-empty {@code messages}; completions: {@code prompt}; responses and embeddings:
 * {@code input}; conversations: non-empty {@code items}). Everything else is a 400, and so is a body over the JSON
 * limits ({@link RequestJson.Limits}). The body is read as a token stream; no JSON tree is built.
 */
public final class OpenAiRequestParser {
  private OpenAiRequestParser() {
  }

  /** Parses with the default JSON limits. */
  public static LlmRequestBody parse(String path, byte[] body) {
    return parse(path, body, RequestJson.defaults());
  }

  public static LlmRequestBody parse(String path, byte[] body, RequestJson json) {
    RequestJson.Fields f;
    try {
      f = json.scan(body);
    } catch (RequestJson.Refused e) {
      throw new RouterException(ErrorCode.BAD_REQUEST, "error unmarshaling request body: " + e.getMessage());
    }
    LlmRequestBody.Api api = LlmRequestBody.Api.fromPath(path);
    switch (api) {
      case CONVERSATIONS -> require(f.itemsNonEmpty(), "invalid conversations request: must have items field");
      case RESPONSES -> require(f.inputPresent(), "invalid responses request: must have input field");
      case CHAT_COMPLETIONS -> require(f.messagesNonEmpty(),
          "invalid chat completions request: must have valid messages field");
      case COMPLETIONS -> require(f.promptNonEmpty(), "invalid completions request: must have prompt field");
      case EMBEDDINGS -> require(f.inputPresent(), "invalid embeddings request: must have input field");
      default -> throw new RouterException(ErrorCode.BAD_REQUEST, "unsupported API endpoint");
    }
    return new LlmRequestBody(api, body, f);
  }

  /** The {@code model} field; 400 when absent or not a string. */
  public static String model(LlmRequestBody body) {
    String model = body.fields().model();
    if (model == null) {
      throw new RouterException(ErrorCode.BAD_REQUEST, "model not found in request body");
    }
    return model;
  }

  /** The body with its {@code model} set to {@code target}, re-serialised by streaming (no tree). */
  public static byte[] withModel(LlmRequestBody body, String target) {
    try {
      return AcceptedJson.withModel(body.raw(), target);
    } catch (IllegalStateException e) {
      throw new RouterException(ErrorCode.INTERNAL, "Error marshalling request body");
    }
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new RouterException(ErrorCode.BAD_REQUEST, message);
    }
  }
}
