package dev.modelplane.simulator;

/**
 * An OpenAI-style error: {@code {"error":{"message","type","param","code"}}}, with vLLM's type names.
 *
 * @param status the HTTP status, also sent as {@code code}
 */
public record ApiError(int status, String message, String param) {

  public static ApiError badRequest(String message) {
    return new ApiError(400, message, null);
  }

  public static ApiError badRequest(String message, String param) {
    return new ApiError(400, message, param);
  }

  public static ApiError notFound(String message) {
    return new ApiError(404, message, null);
  }

  /** The error type vLLM (and the OpenAI SDKs' error classes) use for {@code status}. */
  public String type() {
    return switch (status) {
      case 400 -> "BadRequestError";
      case 401 -> "AuthenticationError";
      case 403 -> "PermissionDeniedError";
      case 404 -> "NotFoundError";
      case 405 -> "MethodNotAllowedError";
      case 413 -> "RequestTooLargeError";
      case 422 -> "UnprocessableEntityError";
      case 429 -> "RateLimitError";
      case 503 -> "ServiceUnavailableError";
      default -> status >= 500 ? "InternalServerError" : "BadRequestError";
    };
  }

  /** The JSON body. */
  public String toJson() {
    return "{\"error\":{\"message\":" + Json.quote(message) + ",\"type\":\"" + type() + "\",\"param\":"
        + (param == null ? "null" : Json.quote(param)) + ",\"code\":" + status + "}}";
  }
}
