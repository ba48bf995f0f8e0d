package dev.modelplane.router.gateway;

import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.request.ErrorCode;
import dev.modelplane.router.request.RouterException;
import java.util.regex.Pattern;

/**
 * A request URI that names its pool in its path: {@code /inference-pools/<namespace>/<name>/<api path>}. The gateway
 * routes it to that pool, as if the pool header named it, and forwards the API path alone — so a client that only
 * takes a base URL (a benchmark tool, an SDK) can reach any pool of a router serving several.
 *
 * @param pool the pool the path names
 * @param uri the URI to forward: the API path after the prefix, with the query
 */
record PoolPath(PoolKey pool, String uri) {
  /** The first path segment of a pool-addressed request. */
  static final String PREFIX = "/inference-pools";
  private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
  private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");

  /**
   * The pool and forwarded URI of a pool-addressed request URI, or null when {@code uri} does not start with
   * {@value #PREFIX}.
   *
   * @throws RouterException (400) when it starts so but does not name a namespace, a name and an API path
   */
  static PoolPath parse(String uri) {
    if (uri == null || !uri.startsWith(PREFIX)) {
      return null;
    }
    int queryStart = uri.indexOf('?');
    String path = queryStart < 0 ? uri : uri.substring(0, queryStart);
    if (!path.equals(PREFIX) && !path.startsWith(PREFIX + "/")) {
      return null;
    }
    String[] parts = path.length() <= PREFIX.length() ? new String[0]
        : path.substring(PREFIX.length() + 1).split("/", 3);
    if (parts.length < 3) {
      throw malformed(path, "expected " + PREFIX + "/<namespace>/<name>/<API path>, e.g. " + PREFIX
          + "/default/chat/v1/chat/completions");
    }
    if (!NAMESPACE.matcher(parts[0]).matches()) {
      throw malformed(path, "'" + parts[0] + "' is not a namespace name");
    }
    if (!NAME.matcher(parts[1]).matches()) {
      throw malformed(path, "'" + parts[1] + "' is not an InferencePool name");
    }
    return new PoolPath(new PoolKey(parts[0], parts[1]), uri.substring(PREFIX.length() + parts[0].length()
        + parts[1].length() + 2));
  }

  private static RouterException malformed(String path, String why) {
    String shown = path.length() <= 200 ? path : path.substring(0, 200) + "...";
    return new RouterException(ErrorCode.BAD_REQUEST, "malformed inference pool path " + shown + ": " + why);
  }
}
