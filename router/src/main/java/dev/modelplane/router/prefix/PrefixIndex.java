package dev.modelplane.router.prefix;

import dev.modelplane.router.pool.EndpointId;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which endpoints probably hold which prefix blocks: {@code hash → endpoints}, plus one LRU of hashes per endpoint
 * whose capacity approximates the endpoint's KV cache. Evicting a hash from an endpoint's LRU removes the endpoint
 * from that hash's set.
 *
 * <p>Readers ({@link #matchLongestPrefix}) take no lock: the hash map is concurrent and each set is an immutable
 * array replaced on write. Writers are serialised on the index itself; the producer writes off the request path.
 */
public final class PrefixIndex {
  /** GIE's default LRU capacity per server: about 500K tokens in 16-token blocks. */
  public static final int DEFAULT_LRU_CAPACITY = 31_250;
  private static final EndpointId[] EMPTY = new EndpointId[0];

  private final ConcurrentHashMap<Long, EndpointId[]> hashToEndpoints = new ConcurrentHashMap<>();
  private final Map<EndpointId, Lru> lrus = new HashMap<>();
  private final int defaultCapacity;
  private long entries;

  public PrefixIndex(int defaultCapacity) {
    this.defaultCapacity = defaultCapacity > 0 ? defaultCapacity : DEFAULT_LRU_CAPACITY;
  }

  /**
   * For each endpoint, how many leading blocks of {@code hashes} it holds: walk the hashes in order and stop at the
   * first one no endpoint holds (GIE's greedy longest-prefix match).
   */
  public Map<EndpointId, Integer> matchLongestPrefix(long[] hashes) {
    Map<EndpointId, Integer> matches = new HashMap<>();
    for (long hash : hashes) {
      EndpointId[] holders = hashToEndpoints.get(hash);
      if (holders == null || holders.length == 0) {
        break;
      }
      for (EndpointId id : holders) {
        matches.merge(id, 1, Integer::sum);
      }
    }
    return matches;
  }

  /** Records that {@code endpoint} now holds every block in {@code hashes}; {@code capacity ≤ 0} uses the default. */
  public synchronized void add(long[] hashes, EndpointId endpoint, int capacity) {
    Lru lru = lrus.get(endpoint);
    if (lru == null) {
      lru = new Lru(endpoint, capacity > 0 ? capacity : defaultCapacity);
      lrus.put(endpoint, lru);
    }
    // Link each hash right after its LRU insert, so an eviction triggered by a later hash of the same request unlinks
    // an entry that is already linked (GIE adds all links after all inserts, leaving links without LRU entries).
    for (long hash : hashes) {
      if (lru.put(hash, Boolean.TRUE) == null) {
        entries++;
      }
      hashToEndpoints.compute(hash, (h, holders) -> with(holders, endpoint));
    }
  }

  /** Forgets an endpoint (it left the pool). */
  public synchronized void removeEndpoint(EndpointId endpoint) {
    Lru lru = lrus.remove(endpoint);
    if (lru == null) {
      return;
    }
    for (Iterator<Long> it = lru.keySet().iterator(); it.hasNext(); ) {
      removeHolder(it.next(), endpoint);
      entries--;
    }
  }

  /** Endpoints with entries. */
  public synchronized Set<EndpointId> endpoints() {
    return Set.copyOf(lrus.keySet());
  }

  /** Total LRU entries over all endpoints ({@code inference_extension_prefix_indexer_size}). */
  public synchronized long size() {
    return entries;
  }

  private void removeHolder(long hash, EndpointId endpoint) {
    hashToEndpoints.computeIfPresent(hash, (h, holders) -> {
      EndpointId[] rest = without(holders, endpoint);
      return rest.length == 0 ? null : rest;
    });
  }

  private static EndpointId[] with(EndpointId[] holders, EndpointId endpoint) {
    if (holders == null) {
      return new EndpointId[] {endpoint};
    }
    for (EndpointId id : holders) {
      if (id.equals(endpoint)) {
        return holders;
      }
    }
    EndpointId[] out = java.util.Arrays.copyOf(holders, holders.length + 1);
    out[holders.length] = endpoint;
    return out;
  }

  private static EndpointId[] without(EndpointId[] holders, EndpointId endpoint) {
    int idx = -1;
    for (int i = 0; i < holders.length; i++) {
      if (holders[i].equals(endpoint)) {
        idx = i;
        break;
      }
    }
    if (idx < 0) {
      return holders;
    }
    if (holders.length == 1) {
      return EMPTY;
    }
    EndpointId[] out = new EndpointId[holders.length - 1];
    System.arraycopy(holders, 0, out, 0, idx);
    System.arraycopy(holders, idx + 1, out, idx, holders.length - idx - 1);
    return out;
  }

  /** Access-ordered LRU of one endpoint's hashes; eviction unlinks the endpoint from the hash. */
  private final class Lru extends LinkedHashMap<Long, Boolean> {
    private final EndpointId endpoint;
    private final int capacity;

    Lru(EndpointId endpoint, int capacity) {
      super(16, 0.75f, true);
      this.endpoint = endpoint;
      this.capacity = capacity;
    }

    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
      if (size() > capacity) {
        removeHolder(eldest.getKey(), endpoint);
        entries--;
        return true;
      }
      return false;
    }
  }
}
