package dev.modelplane.router.pool;

/** Namespace and name of an InferencePool ({@code static/static} in static mode). */
public record PoolKey(String namespace, String name) {
  public static final PoolKey STATIC = new PoolKey("static", "static");

  /** Parses {@code name} or {@code namespace/name}; a bare name gets {@code defaultNamespace}. */
  public static PoolKey parse(String text, String defaultNamespace) {
    int slash = text.indexOf('/');
    return slash < 0 ? new PoolKey(defaultNamespace, text) : new PoolKey(text.substring(0, slash),
        text.substring(slash + 1));
  }

  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
