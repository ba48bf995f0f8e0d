package dev.modelplane.router.request;

import dev.modelplane.router.scheduling.RequestJson;

/**
 * What one request, and all requests together, may make the router hold. The same limits apply to the standalone
 * gateway and to the ext_proc server.
 *
 * @param maxBodyBytes a request body above this is answered 413
 * @param json depth, element and string limits of a body's JSON (400 above)
 * @param maxInflightBytes request body bytes held at once across all requests — being received, queued in flow
 *     control or in progress; a request that would go over is answered 429 with {@code Retry-After}
 * @param paths the methods and paths forwarded at all (404 for any other)
 */
public record RequestLimits(long maxBodyBytes, RequestJson.Limits json, long maxInflightBytes, PathPolicy paths) {
  /**
   * 8 MiB: a chat request's text is about 4 bytes a token, so even a 1M-token context with JSON overhead fits, and
   * so do a few inline images; larger multimodal bodies need the flag raised.
   */
  public static final long DEFAULT_MAX_BODY_BYTES = 8L * 1024 * 1024;

  public RequestLimits {
    if (maxBodyBytes < 1) {
      throw new IllegalArgumentException("the request body limit must be positive, got " + maxBodyBytes);
    }
    if (maxInflightBytes < maxBodyBytes) {
      throw new IllegalArgumentException("the in-flight request bytes budget (" + maxInflightBytes
          + ") must be at least the body limit (" + maxBodyBytes + ")");
    }
  }

  /** A quarter of the heap: bodies are held once as bytes, and parsing keeps no tree, so the rest stays free. */
  public static long defaultMaxInflightBytes(long maxBodyBytes) {
    return Math.max(maxBodyBytes, Runtime.getRuntime().maxMemory() / 4);
  }

  public static RequestLimits defaults() {
    return new RequestLimits(DEFAULT_MAX_BODY_BYTES, RequestJson.Limits.DEFAULT,
        defaultMaxInflightBytes(DEFAULT_MAX_BODY_BYTES), PathPolicy.defaults());
  }

  public RequestLimits withMaxBodyBytes(long max) {
    return new RequestLimits(max, json, Math.max(max, maxInflightBytes), paths);
  }

  public RequestLimits withMaxInflightBytes(long max) {
    return new RequestLimits(maxBodyBytes, json, max, paths);
  }

  public RequestLimits withJson(RequestJson.Limits limits) {
    return new RequestLimits(maxBodyBytes, limits, maxInflightBytes, paths);
  }

  public RequestLimits withPaths(PathPolicy policy) {
    return new RequestLimits(maxBodyBytes, json, maxInflightBytes, policy);
  }
}
