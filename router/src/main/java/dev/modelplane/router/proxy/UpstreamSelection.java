package dev.modelplane.router.proxy;

import java.util.Map;
import java.util.Set;

/**
 * The outcome of picking for one request, and the hooks the gateway calls as the request proceeds. Implemented by
 * the in-process scheduler and by the ext_proc client of an external picker.
 */
public interface UpstreamSelection {
  /** Where to send the request first. */
  UpstreamTarget target();

  /** The body to send (possibly rewritten). */
  byte[] body();

  /** Headers to set on the upstream request (lower-case names). */
  Map<String, String> setHeaders();

  /** Headers to remove from the upstream request. */
  Set<String> removeHeaders();

  /** Model names for logs and metrics: incoming, then target. */
  String incomingModel();

  String targetModel();

  /** The request id (from {@code x-request-id}, or generated). */
  String requestId();

  /**
   * Another selection avoiding every endpoint in {@code failed} (host:port), for a retry before the first byte;
   * {@code null} when there is nothing else to try.
   */
  UpstreamSelection retry(Set<String> failed);

  /** The request was sent to {@code target}. */
  void started(UpstreamTarget target);

  /**
   * The upstream answered with response headers; returns headers to add to the client response.
   */
  default Map<String, String> responseHeaders(int status, UpstreamTarget servedBy) {
    return Map.of();
  }

  /** The exchange with {@code target} ended; {@code completed} when the response finished normally. */
  void finished(UpstreamTarget target, boolean completed, long responseBytes);

  /** The whole exchange is over (after the last attempt); releases per-request resources. */
  default void close() {
  }
}
