package dev.modelplane.router.scheduling;

/**
 * How a response ended, for response-side plugins and metrics.
 *
 * @param status the HTTP status the model server answered (0 when it never answered)
 * @param completed whether the response reached its end normally (not reset, not abandoned by the client)
 * @param responseBytes response body bytes relayed to the client
 * @param firstByteNanos when the first token-bearing event of a stream, or the first byte of any other body, was
 *     relayed ({@link System#nanoTime()} based), −1 when none was: a stream's opening events (Anthropic's
 *     {@code message_start}, the Responses API's {@code response.created}) may come before the prefill is over
 * @param lastByteNanos when the last token-bearing event of a stream, or the last byte of any other body, was
 *     relayed, −1 when none was
 * @param events token-bearing server-sent events relayed ({@link ResponseProgress}); 0 for a plain body
 */
public record ResponseOutcome(int status, boolean completed, long responseBytes, long firstByteNanos,
    long lastByteNanos, int events) {

  /** An outcome without body timing. */
  public ResponseOutcome(int status, boolean completed, long responseBytes) {
    this(status, completed, responseBytes, -1, -1, 0);
  }

  /** An outcome with the timing {@code progress} followed ({@code null}: none was followed). */
  public static ResponseOutcome of(int status, boolean completed, long responseBytes, ResponseProgress progress) {
    if (progress == null) {
      return new ResponseOutcome(status, completed, responseBytes);
    }
    if (progress.events() > 0) {
      return new ResponseOutcome(status, completed, responseBytes, progress.firstEventNanos(),
          progress.lastEventNanos(), progress.events());
    }
    return new ResponseOutcome(status, completed, responseBytes, progress.firstByteNanos(), progress.lastByteNanos(),
        0);
  }

  /** Whether the model server answered with a success status and the response finished. */
  public boolean succeeded() {
    return completed && status > 0 && status < 400;
  }
}
