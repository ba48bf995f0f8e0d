package dev.modelplane.router.request;

import dev.modelplane.router.scheduling.AcceptedJson;
import dev.modelplane.router.scheduling.LlmRequestBody;
import dev.modelplane.router.scheduling.LlmRequestBody.Api;
import dev.modelplane.router.scheduling.RequestJson;
import java.util.List;
import java.util.function.Predicate;

/**
 * GIE's {@code openai-parser}: the API comes from the path suffix; the body must be a JSON object carrying what that
 * API requires (chat: non-empty {@code messages}; completions: {@code prompt}; responses and embeddings:
 * {@code input}; conversations: non-empty {@code items}) and a string {@code model}. Everything else is a 400. The
 * {@code /render} endpoints of chat and completions take their parent's body, which the model does not run on.
 */
public final class OpenAiRequestParser {
  /** The OpenAI APIs' parsers. */
  static final List<RequestParser> PARSERS = List.of(
      openAi(Api.CONVERSATIONS, List.of("conversations"), f -> f.itemsNonEmpty(),
          "invalid conversations request: must have items field"),
      openAi(Api.RESPONSES, List.of("responses"), f -> f.inputPresent(),
          "invalid responses request: must have input field"),
      openAi(Api.CHAT_COMPLETIONS, List.of("chat/completions"), f -> f.messagesNonEmpty(),
          "invalid chat completions request: must have valid messages field"),
      render(Api.CHAT_COMPLETIONS, "chat/completions/render", f -> f.messagesNonEmpty(),
          "invalid chat completions request: must have valid messages field"),
      openAi(Api.COMPLETIONS, List.of("completions"), f -> f.promptNonEmpty(),
          "invalid completions request: must have prompt field"),
      render(Api.COMPLETIONS, "completions/render", f -> f.promptNonEmpty(),
          "invalid completions request: must have prompt field"),
      openAi(Api.EMBEDDINGS, List.of("embeddings"), f -> f.inputPresent(),
          "invalid embeddings request: must have input field"));

  private OpenAiRequestParser() {
  }

  private static RequestParser openAi(Api api, List<String> paths, Predicate<RequestJson.Fields> valid,
      String invalid) {
    return new JsonApiParser(api, paths, valid, invalid, true, ErrorShape.OPENAI, true);
  }

  /** The {@code /render} endpoint of {@code api}: its parent's body, but the model does not run on it. */
  private static RequestParser render(Api api, String path, Predicate<RequestJson.Fields> valid, String invalid) {
    return new JsonApiParser(api, List.of(path), valid, invalid, true, ErrorShape.OPENAI, false);
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
}
