package dev.modelplane.router.ui;

/**
 * One routing decision as the live view lists it: where a request went and how it ended. Holds no request content
 * (no prompt, no headers): only names the pools and models already expose.
 *
 * @param timeMillis when the request ended, epoch milliseconds
 * @param pool the pool ({@code namespace/name}), empty when the request named none that exists
 * @param model the model the client asked for
 * @param targetModel the model the server was asked for (after rewrites)
 * @param endpoint the endpoint's name (its pod, or {@code host:port} for a static endpoint), empty when none was chosen
 * @param address the endpoint's {@code host:port}, empty when none was chosen
 * @param reason who decided: the scheduling profile, the endpoint picker, or why the router refused
 * @param status the HTTP status the client saw (the model server's, or the router's own refusal)
 * @param ttftMs time from the request's arrival to the first token of a streamed response, −1 for a plain body
 *     (its first byte is its last, so it has no time to first token) or when no token came
 * @param durationMs time from the request's arrival to its end
 * @param tokens token-bearing stream events relayed (0 for a plain JSON body)
 */
public record LiveDecision(long timeMillis, String pool, String model, String targetModel, String endpoint,
    String address, String reason, int status, double ttftMs, double durationMs, int tokens) {

  public LiveDecision {
    pool = orEmpty(pool);
    model = orEmpty(model);
    targetModel = orEmpty(targetModel);
    endpoint = orEmpty(endpoint);
    address = orEmpty(address);
    reason = orEmpty(reason);
  }

  /** Whether the request succeeded (a 2xx or 3xx status). */
  public boolean ok() {
    return status >= 200 && status < 400;
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }
}
