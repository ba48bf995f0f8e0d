package dev.modelplane.router.request;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * An endpoint picker in another process (an InferencePool's {@code endpointPickerRef}) that the director hands the
 * pick step to. The director still parses, records metrics and runs the request's accounting; admission, scheduling
 * and plugins run in the picker.
 */
public interface ExternalPicker {
  /** Starts picking for one request; the exchange stays open for response-side reports until it is closed. */
  Exchange pick(RequestInput input, String requestId);

  /** One request's conversation with the picker. */
  interface Exchange {
    /**
     * Completes with the picker's answer. Fails with a {@link RouterException} when the picker answered the request
     * itself (e.g. 429), and with any other exception when the picker could not be reached or broke the protocol —
     * then the director applies the failure mode (fail open or closed).
     */
    CompletableFuture<Answer> answer();

    /** Tells the picker which endpoint served the request and its status. */
    void responseReceived(int status, Destination servedBy);

    /** Ends the exchange (idempotent); before an answer, withdraws the request. */
    void close();
  }

  /**
   * What the picker decided.
   *
   * @param destinations endpoints as {@code host:port}, in the picker's order (retries walk this list)
   * @param body the body to forward (the picker may rewrite it)
   * @param setHeaders headers to set on the upstream request
   * @param removeHeaders headers to remove from it
   */
  record Answer(List<String> destinations, byte[] body, Map<String, String> setHeaders, Set<String> removeHeaders) {
  }
}
