package dev.modelplane.router.scheduling;

/**
 * How a response ended, for response-side plugins and metrics.
 *
 * @param status the HTTP status the model server answered (0 when it never answered)
 * @param completed whether the response reached its end normally (not reset, not abandoned by the client)
 * @param responseBytes response body bytes relayed to the client
 */
public record ResponseOutcome(int status, boolean completed, long responseBytes) {
  /** Whether the model server answered with a success status and the response finished. */
  public boolean succeeded() {
    return completed && status > 0 && status < 400;
  }
}
