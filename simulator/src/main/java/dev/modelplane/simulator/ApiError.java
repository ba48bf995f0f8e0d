package dev.modelplane.simulator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.common.openai.OpenAiError;

/**
 * An error answer: an HTTP status and an OpenAI-shaped body ({@link OpenAiError}) with vLLM's type names.
 *
 * @param status the HTTP status
 * @param message what went wrong
 * @param param the request field at fault, or null
 * @param code OpenAI's code where OpenAI has one for the same error ({@code model_not_found},
 *     {@code context_length_exceeded}, {@code rate_limit_exceeded}, {@code invalid_api_key}), else null
 */
public record ApiError(int status, String message, String param, String code) {

  /** An error without an OpenAI code. */
  public ApiError(int status, String message, String param) {
    this(status, message, param, null);
  }

  public static ApiError badRequest(String message) {
    return new ApiError(400, message, null);
  }

  public static ApiError badRequest(String message, String param) {
    return new ApiError(400, message, param);
  }

  public static ApiError notFound(String message) {
    return new ApiError(404, message, null);
  }

  /** A 404 for a model this server does not serve. */
  public static ApiError modelNotFound(String message) {
    return new ApiError(404, message, "model", "model_not_found");
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
    return new OpenAiError(message, type(), param, code).toJson();
  }

  /** The error type of Anthropic's API for {@code status}. */
  public String anthropicType() {
    return switch (status) {
      case 401 -> "authentication_error";
      case 403 -> "permission_error";
      case 404 -> "not_found_error";
      case 413 -> "request_too_large";
      case 429 -> "rate_limit_error";
      case 503, 529 -> "overloaded_error";
      default -> status >= 500 ? "api_error" : "invalid_request_error";
    };
  }

  /** The body in Anthropic's shape: {@code {"type":"error","error":{"type":…,"message":…}}}. */
  public String toAnthropicJson() {
    ObjectNode root = Rank.JSON.createObjectNode().put("type", "error");
    root.putObject("error").put("type", anthropicType()).put("message", message);
    return root.toString();
  }
}
