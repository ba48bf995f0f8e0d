package dev.modelplane.router.request;

import dev.modelplane.common.openai.OpenAiError;

/** The router's error bodies: OpenAI's shape ({@link OpenAiError}) with the type of the {@link ErrorCode}. */
public final class OpenAiErrors {
  private OpenAiErrors() {
  }

  public static String body(ErrorCode code, String message) {
    return new OpenAiError(message, code.openAiType(), null,
        code == ErrorCode.MODEL_NOT_FOUND ? "model_not_found" : null).toJson();
  }
}
