package dev.modelplane.router.request;

import dev.modelplane.router.pool.EndpointPool;
import java.util.List;
import java.util.Map;

/**
 * A request as it reaches the director, from either front end.
 *
 * @param pool the pool that serves it
 * @param path request path (selects the OpenAI API)
 * @param headers request headers, lower-case names
 * @param body the full request body
 * @param subsetHint the proxy's {@code x-gateway-destination-endpoint-subset} list, {@code null} when absent
 * @param receivedNanos {@link System#nanoTime()} when the request arrived
 * @param trace the request's spans ({@link RequestTrace#OFF} when tracing is off)
 */
public record RequestInput(EndpointPool pool, String path, Map<String, String> headers, byte[] body,
    List<String> subsetHint, long receivedNanos, RequestTrace trace) {

  public RequestInput {
    trace = trace == null ? RequestTrace.OFF : trace;
  }

  /** An untraced request. */
  public RequestInput(EndpointPool pool, String path, Map<String, String> headers, byte[] body,
      List<String> subsetHint, long receivedNanos) {
    this(pool, path, headers, body, subsetHint, receivedNanos, RequestTrace.OFF);
  }
}
