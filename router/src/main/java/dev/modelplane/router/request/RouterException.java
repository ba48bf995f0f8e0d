package dev.modelplane.router.request;

/** A request the router answers itself, with GIE's code and a message safe to show the client. */
public final class RouterException extends RuntimeException {
  private final ErrorCode code;
  private final int retryAfterSeconds;

  public RouterException(ErrorCode code, String message) {
    this(code, message, 0);
  }

  /** An error the client may retry after {@code retryAfterSeconds} (sent as {@code Retry-After} when positive). */
  public RouterException(ErrorCode code, String message, int retryAfterSeconds) {
    super(message, null, false, false);
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  public ErrorCode code() {
    return code;
  }

  /** Seconds for a {@code Retry-After} header; 0 = none. */
  public int retryAfterSeconds() {
    return retryAfterSeconds;
  }

  /** GIE's wording: {@code inference error: <Code> - <message>}. */
  public String gieMessage() {
    return "inference error: " + code.code() + " - " + getMessage();
  }
}
