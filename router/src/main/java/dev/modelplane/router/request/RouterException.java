package dev.modelplane.router.request;

/** A request the router answers itself, with GIE's code and a message safe to show the client. */
public final class RouterException extends RuntimeException {
  private final ErrorCode code;

  public RouterException(ErrorCode code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  public ErrorCode code() {
    return code;
  }

  /** GIE's wording: {@code inference error: <Code> - <message>}. */
  public String gieMessage() {
    return "inference error: " + code.code() + " - " + getMessage();
  }
}
