package dev.modelplane.router.pool;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Every pool this router serves. A request names its pool with the header {@value #POOL_HEADER} ({@code name} or
 * {@code namespace/name}); without it, the default pool (the first one configured) serves it.
 */
public final class PoolRegistry {
  /** Request header selecting the pool when one router serves several. */
  public static final String POOL_HEADER = "x-modelplane-inference-pool";

  private final Map<PoolKey, EndpointPool> pools = new ConcurrentHashMap<>();
  private final List<EndpointListener> listeners = new CopyOnWriteArrayList<>();
  private volatile PoolKey defaultPool;
  private volatile String unavailableReason;

  /** The pool for {@code key}, created (and given every registered listener) on first use. */
  public EndpointPool getOrCreate(PoolKey key) {
    return pools.computeIfAbsent(key, k -> {
      EndpointPool pool = new EndpointPool(k);
      listeners.forEach(pool::addListener);
      if (defaultPool == null) {
        defaultPool = k;
      }
      return pool;
    });
  }

  public EndpointPool get(PoolKey key) {
    return pools.get(key);
  }

  /** Removes a pool, telling listeners that each of its endpoints left. */
  public void remove(PoolKey key) {
    EndpointPool pool = pools.remove(key);
    if (pool != null) {
      pool.setEndpoints(List.of());
    }
    if (key.equals(defaultPool)) {
      defaultPool = pools.keySet().stream().findFirst().orElse(null);
    }
  }

  public void defaultPool(PoolKey key) {
    this.defaultPool = key;
  }

  /** Pool for a request: the header's pool (bare names match any namespace), else the default; null if none. */
  public EndpointPool resolve(String headerValue) {
    if (headerValue != null && !headerValue.isBlank()) {
      String v = headerValue.trim();
      int slash = v.indexOf('/');
      if (slash >= 0) {
        return pools.get(new PoolKey(v.substring(0, slash), v.substring(slash + 1)));
      }
      for (EndpointPool p : pools.values()) {
        if (p.key().name().equals(v)) {
          return p;
        }
      }
      return null;
    }
    PoolKey d = defaultPool;
    return d == null ? null : pools.get(d);
  }

  /** The pool when exactly one is served, else null (the gateway then chooses by model). */
  public EndpointPool single() {
    var all = pools.values().iterator();
    if (!all.hasNext()) {
      return null;
    }
    EndpointPool first = all.next();
    return all.hasNext() ? null : first;
  }

  public Collection<EndpointPool> pools() {
    return pools.values();
  }

  /**
   * Why no request can be routed yet (endpoint discovery has not synced), or null when requests are routed. Both
   * front ends answer 503 with this message meanwhile.
   */
  public String unavailableReason() {
    return unavailableReason;
  }

  public void unavailableReason(String reason) {
    this.unavailableReason = reason;
  }

  /** Registers a listener on every current and future pool. */
  public void addListener(EndpointListener listener) {
    listeners.add(listener);
    pools.values().forEach(p -> p.addListener(listener));
  }
}
