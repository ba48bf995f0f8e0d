package dev.modelplane.router.scheduling;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * A request as the scheduler sees it. Header names are lower case. Plugins that must change what reaches the model
 * server (the P/D handler's {@code x-prefiller-host-port}) do so through {@link #setHeader}/{@link #removeHeader},
 * which both the gateway and the ext_proc server turn into header mutations.
 */
public final class InferenceRequest {
  private final String requestId;
  private final String incomingModel;
  private final String targetModel;
  private final LlmRequestBody body;
  private final Map<String, String> headers;
  private final int priority;
  private final String fairnessId;
  private final int requestSizeBytes;
  private final Map<String, String> setHeaders = new LinkedHashMap<>();
  private final Set<String> removedHeaders = new LinkedHashSet<>();
  private final Map<String, String> responseHeaders = new java.util.concurrent.ConcurrentHashMap<>();
  private final Map<String, Object> attributes = new java.util.concurrent.ConcurrentHashMap<>();

  public InferenceRequest(String requestId, String incomingModel, String targetModel, LlmRequestBody body,
      Map<String, String> headers, int priority, String fairnessId, int requestSizeBytes) {
    this.requestId = requestId;
    this.incomingModel = incomingModel;
    this.targetModel = targetModel;
    this.body = body;
    this.headers = new HashMap<>(headers);
    this.priority = priority;
    this.fairnessId = fairnessId;
    this.requestSizeBytes = requestSizeBytes;
  }

  public String requestId() {
    return requestId;
  }

  /** The model the client asked for. */
  public String incomingModel() {
    return incomingModel;
  }

  /** The model the request is routed as (after rewrites). */
  public String targetModel() {
    return targetModel;
  }

  public LlmRequestBody body() {
    return body;
  }

  /** Request headers (lower-case names) including those set by plugins. */
  public Map<String, String> headers() {
    return headers;
  }

  public String header(String name) {
    return headers.get(name);
  }

  public int priority() {
    return priority;
  }

  public String fairnessId() {
    return fairnessId;
  }

  public int requestSizeBytes() {
    return requestSizeBytes;
  }

  /** Sets a header on the request forwarded to the model server, overriding what the client sent. */
  public void setHeader(String name, String value) {
    String key = name.toLowerCase(java.util.Locale.ROOT);
    headers.put(key, value);
    setHeaders.put(key, value);
    removedHeaders.remove(key);
  }

  /** Removes a header from the forwarded request. */
  public void removeHeader(String name) {
    String key = name.toLowerCase(java.util.Locale.ROOT);
    headers.remove(key);
    setHeaders.remove(key);
    removedHeaders.add(key);
  }

  /** Headers plugins set, in order. */
  public Map<String, String> setHeaders() {
    return setHeaders;
  }

  /** Headers plugins removed. */
  public Set<String> removedHeaders() {
    return removedHeaders;
  }

  /**
   * Sets a header on the response the client receives (a session token for the client to send back). Plugins set it
   * at the latest when the response headers arrive (ResponseReceived); both front ends add it to the client's
   * response head.
   */
  public void setResponseHeader(String name, String value) {
    responseHeaders.put(name.toLowerCase(java.util.Locale.ROOT), value);
  }

  /** Headers plugins set on the client's response. */
  public Map<String, String> responseHeaders() {
    return responseHeaders;
  }

  /** Per-request state a plugin keeps between extension points (e.g. prefix hashes from PrepareData to PreRequest). */
  @SuppressWarnings("unchecked")
  public <T> T attribute(String key) {
    return (T) attributes.get(key);
  }

  public void attribute(String key, Object value) {
    attributes.put(key, value);
  }

  /**
   * Takes over the attributes of the same request's earlier scheduling (a retry after a failed attempt), so that
   * plugins can undo what they did for the attempt that failed: release its in-flight charge, close its backlog.
   */
  public void inheritAttributes(InferenceRequest earlier) {
    attributes.putAll(earlier.attributes);
  }
}
