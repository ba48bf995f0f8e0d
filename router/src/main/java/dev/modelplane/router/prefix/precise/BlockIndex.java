package dev.modelplane.router.prefix.precise;

import dev.modelplane.common.kvevents.VllmBlockHasher;
import dev.modelplane.router.pool.EndpointId;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which endpoints of one pool hold which KV blocks, as their servers reported them: a block's <em>key</em> (the 64-bit
 * wire value of the digest the router computed from the block's tokens) → the endpoints holding it, and per endpoint
 * the server's own block hash → that digest, so the server's next event can continue the chain from its parent and
 * its removals find the key.
 *
 * <p>Bounded twice, as llm-d's in-memory index is: at most {@code podsPerKey} endpoints per key (a new one pushes out
 * the one stored longest ago) and at most {@code maxKeys} keys (the key stored or re-stored longest ago goes, with
 * every endpoint's entry for it). Readers ({@link #holders}) take no lock: each key's endpoints are an immutable
 * array replaced on write. Writers are serialised on the index.
 */
final class BlockIndex {
  private static final EndpointId[] NONE = new EndpointId[0];

  /** One key's endpoints, longest-stored first, each with the server hash it stored the block under. */
  private record Holders(EndpointId[] pods, long[] engineHashes, long stamp) {
  }

  private final int maxKeys;
  private final int podsPerKey;
  private final ConcurrentHashMap<Long, Holders> keys = new ConcurrentHashMap<>();
  private final Map<EndpointId, Map<Long, byte[]>> chains = new HashMap<>();
  private final StampQueue order = new StampQueue();
  private long stamp;
  private long entries;

  BlockIndex(int maxKeys, int podsPerKey) {
    this.maxKeys = maxKeys;
    this.podsPerKey = podsPerKey;
  }

  /** The endpoints holding the block with this key (never null; do not modify). */
  EndpointId[] holders(long key) {
    Holders h = keys.get(key);
    return h == null ? NONE : h.pods();
  }

  /** The digest {@code pod} stored under the server hash {@code engineHash}, or null when the index has none. */
  synchronized byte[] digest(EndpointId pod, long engineHash) {
    Map<Long, byte[]> chain = chains.get(pod);
    return chain == null ? null : chain.get(engineHash);
  }

  /** {@code pod} holds the block whose digest is {@code digest}, which its server calls {@code engineHash}. */
  synchronized void store(EndpointId pod, long engineHash, byte[] digest) {
    chains.computeIfAbsent(pod, p -> new HashMap<>()).put(engineHash, digest);
    long key = VllmBlockHasher.wireValue(digest);
    long s = ++stamp;
    Holders h = keys.get(key);
    if (h == null) {
      keys.put(key, new Holders(new EndpointId[] {pod}, new long[] {engineHash}, s));
      entries++;
    } else {
      int i = indexOf(h.pods(), pod);
      Holders rest = i >= 0 ? without(h, i) : h;
      if (i < 0) {
        entries++;
        if (rest.pods().length >= podsPerKey) {
          unchain(rest.pods()[0], rest.engineHashes()[0], key);
          rest = without(rest, 0);
          entries--;
        }
      }
      keys.put(key, appended(rest, pod, engineHash, s));
    }
    order.add(key, s);
    while (keys.size() > maxKeys && !order.isEmpty()) {
      evict(order.headKey(), order.headStamp());
      order.pop();
    }
    if (order.size() > 2 * keys.size() + 1024) {
      order.retain((k, st) -> {
        Holders live = keys.get(k);
        return live != null && live.stamp() == st;
      });
    }
  }

  /**
   * {@code pod}'s server evicted the block it calls {@code engineHash}.
   *
   * @return the block's key, or null when the index did not know the block
   */
  synchronized Long remove(EndpointId pod, long engineHash) {
    Map<Long, byte[]> chain = chains.get(pod);
    byte[] digest = chain == null ? null : chain.remove(engineHash);
    if (digest == null) {
      return null;
    }
    if (chain.isEmpty()) {
      chains.remove(pod);
    }
    long key = VllmBlockHasher.wireValue(digest);
    Holders h = keys.get(key);
    int i = h == null ? -1 : indexOf(h.pods(), pod);
    // Two server hashes of one endpoint naming the same key: the endpoint still holds it under the other.
    if (i >= 0 && h.engineHashes()[i] == engineHash) {
      dropHolder(key, h, i);
    }
    return key;
  }

  /** Forgets every block of {@code pod}, at once. */
  synchronized void clear(EndpointId pod) {
    Map<Long, byte[]> chain = chains.remove(pod);
    if (chain == null) {
      return;
    }
    for (byte[] digest : chain.values()) {
      long key = VllmBlockHasher.wireValue(digest);
      Holders h = keys.get(key);
      int i = h == null ? -1 : indexOf(h.pods(), pod);
      if (i >= 0) {
        dropHolder(key, h, i);
      }
    }
  }

  /** Distinct block keys. */
  int keyCount() {
    return keys.size();
  }

  /** (key, endpoint) pairs. */
  synchronized long entries() {
    return entries;
  }

  /** Every key with its endpoints, in key order (to compare two indexes). */
  synchronized Map<Long, Set<EndpointId>> contents() {
    Map<Long, Set<EndpointId>> out = new TreeMap<>();
    keys.forEach((k, h) -> out.put(k, new LinkedHashSet<>(Arrays.asList(h.pods()))));
    return out;
  }

  private void evict(long key, long keyStamp) {
    Holders h = keys.get(key);
    if (h == null || h.stamp() != keyStamp) {
      return; // removed, or stored again since: a later entry of the queue stands for it
    }
    keys.remove(key);
    for (int i = 0; i < h.pods().length; i++) {
      unchain(h.pods()[i], h.engineHashes()[i], key);
    }
    entries -= h.pods().length;
  }

  private void dropHolder(long key, Holders h, int i) {
    entries--;
    if (h.pods().length == 1) {
      keys.remove(key);
    } else {
      keys.put(key, without(h, i));
    }
  }

  /** Drops {@code pod}'s chain entry for {@code engineHash} if it still names {@code key}. */
  private void unchain(EndpointId pod, long engineHash, long key) {
    Map<Long, byte[]> chain = chains.get(pod);
    byte[] digest = chain == null ? null : chain.get(engineHash);
    if (digest != null && VllmBlockHasher.wireValue(digest) == key) {
      chain.remove(engineHash);
      if (chain.isEmpty()) {
        chains.remove(pod);
      }
    }
  }

  private static int indexOf(EndpointId[] pods, EndpointId pod) {
    for (int i = 0; i < pods.length; i++) {
      if (pods[i].equals(pod)) {
        return i;
      }
    }
    return -1;
  }

  private static Holders without(Holders h, int i) {
    int n = h.pods().length - 1;
    EndpointId[] pods = new EndpointId[n];
    long[] hashes = new long[n];
    System.arraycopy(h.pods(), 0, pods, 0, i);
    System.arraycopy(h.pods(), i + 1, pods, i, n - i);
    System.arraycopy(h.engineHashes(), 0, hashes, 0, i);
    System.arraycopy(h.engineHashes(), i + 1, hashes, i, n - i);
    return new Holders(pods, hashes, h.stamp());
  }

  private static Holders appended(Holders h, EndpointId pod, long engineHash, long stamp) {
    EndpointId[] pods = Arrays.copyOf(h.pods(), h.pods().length + 1);
    long[] hashes = Arrays.copyOf(h.engineHashes(), pods.length);
    pods[pods.length - 1] = pod;
    hashes[pods.length - 1] = engineHash;
    return new Holders(pods, hashes, stamp);
  }

  /** The order keys were stored in: (key, stamp) pairs in a ring of primitive longs that grows as needed. */
  private static final class StampQueue {
    /** Whether a queued pair still stands for its key. */
    interface Live {
      boolean test(long key, long stamp);
    }

    private long[] keys = new long[16];
    private long[] stamps = new long[16];
    private int head;
    private int size;

    void add(long key, long stamp) {
      if (size == keys.length) {
        resize(keys.length * 2, (k, s) -> true);
      }
      int i = (head + size) & (keys.length - 1);
      keys[i] = key;
      stamps[i] = stamp;
      size++;
    }

    boolean isEmpty() {
      return size == 0;
    }

    int size() {
      return size;
    }

    long headKey() {
      return keys[head];
    }

    long headStamp() {
      return stamps[head];
    }

    void pop() {
      head = (head + 1) & (keys.length - 1);
      size--;
    }

    /** Keeps only the pairs that still stand for their keys, in order. */
    void retain(Live live) {
      resize(keys.length, live);
    }

    private void resize(int capacity, Live keep) {
      long[] k = new long[capacity];
      long[] s = new long[capacity];
      int n = 0;
      for (int j = 0; j < size; j++) {
        int i = (head + j) & (keys.length - 1);
        if (keep.test(keys[i], stamps[i])) {
          k[n] = keys[i];
          s[n] = stamps[i];
          n++;
        }
      }
      keys = k;
      stamps = s;
      head = 0;
      size = n;
    }
  }
}
