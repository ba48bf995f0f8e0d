package dev.modelplane.router.proxy;

import dev.modelplane.common.openai.OpenAiError;
import dev.modelplane.router.request.ErrorCode;

/** The router's error bodies: OpenAI's shape ({@link OpenAiError}) with the type of the {@link ErrorCode}. */
public final class OpenAiErrors {
  private OpenAiErrors() {
  }

  public static String body(ErrorCode code, String message) {
    return new OpenAiError(message, code.openAiType(), null, null).toJson();
  }
}
