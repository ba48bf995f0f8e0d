package dev.modelplane.router.request;

/** GIE's error codes ({@code pkg/common/error}) and the HTTP status each maps to, plus the gateway's 413. */
public enum ErrorCode {
  BAD_REQUEST("BadRequest", 400, "invalid_request_error", "invalid_request_error"),
  UNAUTHORIZED("Unauthorized", 401, "authentication_error", "authentication_error"),
  FORBIDDEN("Forbidden", 403, "permission_error", "permission_error"),
  NOT_FOUND("NotFound", 404, "not_found_error", "not_found_error"),
  /** No pool serves the model the request names (gateway; OpenAI's answer, with code {@code model_not_found}). */
  MODEL_NOT_FOUND("ModelNotFound", 404, "invalid_request_error", "not_found_error"),
  PAYLOAD_TOO_LARGE("PayloadTooLarge", 413, "invalid_request_error", "request_too_large"),
  RESOURCE_EXHAUSTED("ResourceExhausted", 429, "rate_limit_exceeded", "rate_limit_error"),
  INTERNAL("Internal", 500, "server_error", "api_error"),
  SERVICE_UNAVAILABLE("ServiceUnavailable", 503, "service_unavailable", "overloaded_error"),
  /** The model server did not answer in time (gateway). */
  GATEWAY_TIMEOUT("GatewayTimeout", 504, "server_error", "api_error"),
  /** The client did not send its request in time (gateway). */
  REQUEST_TIMEOUT("RequestTimeout", 408, "invalid_request_error", "invalid_request_error"),
  /** The model server answered with an error (counted, never produced by the router). */
  MODEL_SERVER_ERROR("ModelServerError", 502, "server_error", "api_error");

  private final String code;
  private final int httpStatus;
  private final String openAiType;
  private final String anthropicType;

  ErrorCode(String code, int httpStatus, String openAiType, String anthropicType) {
    this.code = code;
    this.httpStatus = httpStatus;
    this.openAiType = openAiType;
    this.anthropicType = anthropicType;
  }

  /** GIE's code string, used as the {@code error_code} metric label. */
  public String code() {
    return code;
  }

  public int httpStatus() {
    return httpStatus;
  }

  /** The {@code error.type} of an OpenAI-style error body. */
  public String openAiType() {
    return openAiType;
  }

  /** The {@code error.type} of an Anthropic-style error body (the status stays the router's). */
  public String anthropicType() {
    return anthropicType;
  }
}
