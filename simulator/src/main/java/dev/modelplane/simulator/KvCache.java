package dev.modelplane.simulator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;

/**
 * vLLM's paged KV cache in miniature: {@code numBlocks} blocks of {@code blockSize} tokens. A full block gets a hash
 * chained from its parent's hash, its token ids and the adapter it was computed for, so a hash names a whole prefix.
 * Blocks nobody references but that hold a hash stay cached and are evicted least recently used first; usage counts
 * referenced blocks only, as {@code vllm:kv_cache_usage_perc} does. Not thread-safe: the engine thread owns it.
 */
final class KvCache {
  private final int numBlocks;
  private final int blockSize;
  private final boolean prefixCaching;
  private final long seedHash;
  private final int[] refs;
  private final long[] hashes;
  private final boolean[] hashed;
  private final ArrayDeque<Integer> clean = new ArrayDeque<>();
  /** Cached blocks with no reference, least recently freed first. */
  private final LinkedHashSet<Integer> evictable = new LinkedHashSet<>();
  private final Map<Long, Integer> byHash = new HashMap<>();
  private int used;

  KvCache(int numBlocks, int blockSize, boolean prefixCaching, String hashSeed) {
    this.numBlocks = numBlocks;
    this.blockSize = blockSize;
    this.prefixCaching = prefixCaching;
    this.seedHash = fnv64(0xcbf29ce484222325L, hashSeed.getBytes(StandardCharsets.UTF_8));
    refs = new int[numBlocks];
    hashes = new long[numBlocks];
    hashed = new boolean[numBlocks];
    for (int i = 0; i < numBlocks; i++) {
      clean.add(i);
    }
  }

  int blockSize() {
    return blockSize;
  }

  int numBlocks() {
    return numBlocks;
  }

  /** Referenced blocks / all blocks. */
  double usage() {
    return (double) used / numBlocks;
  }

  int freeBlocks() {
    return numBlocks - used;
  }

  /** Hash of the full block {@code [from, from+blockSize)} of {@code tokens}, chained on {@code parent}. */
  long blockHash(long parent, int[] tokens, int from, String adapter) {
    long h = parent == 0 ? seedHash : parent;
    h = mix(h ^ 0x9e3779b97f4a7c15L);
    for (int i = from; i < from + blockSize; i++) {
      h = mix(h ^ tokens[i]);
    }
    if (adapter != null) {
      h = fnv64(h, adapter.getBytes(StandardCharsets.UTF_8));
    }
    return h == 0 ? 1 : h;
  }

  /** Hashes of every full block of the first {@code length} tokens. */
  long[] prefixHashes(int[] tokens, int length, String adapter) {
    long[] out = new long[length / blockSize];
    long parent = 0;
    for (int b = 0; b < out.length; b++) {
      parent = blockHash(parent, tokens, b * blockSize, adapter);
      out[b] = parent;
    }
    return out;
  }

  /** How many leading blocks of {@code prefix} are cached (no side effect). */
  int matchedBlocks(long[] prefix) {
    if (!prefixCaching) {
      return 0;
    }
    int n = 0;
    while (n < prefix.length && byHash.containsKey(prefix[n])) {
      n++;
    }
    return n;
  }

  /**
   * Allocates the blocks for a sequence's first {@code tokens} tokens, reusing the first {@code matched} cached
   * blocks of {@code prefix}. Returns the block table, or null (and changes nothing) when too few blocks are free.
   */
  int[] allocate(long[] prefix, int matched, int tokens) {
    int needed = (tokens + blockSize - 1) / blockSize;
    int reusedEvictable = 0;
    for (int b = 0; b < matched; b++) {
      if (refs[byHash.get(prefix[b])] == 0) {
        reusedEvictable++;
      }
    }
    int fresh = needed - matched;
    if (fresh > clean.size() + evictable.size() - reusedEvictable) {
      return null;
    }
    int[] table = new int[needed];
    for (int b = 0; b < matched; b++) {
      int id = byHash.get(prefix[b]);
      ref(id);
      table[b] = id;
    }
    for (int b = matched; b < needed; b++) {
      table[b] = take();
    }
    return table;
  }

  /** Adds one block to a growing sequence, or returns -1 when none is free. */
  int grow() {
    if (clean.isEmpty() && evictable.isEmpty()) {
      return -1;
    }
    return take();
  }

  /** Records that block {@code id} is now full with content hash {@code hash}, so later requests can reuse it. */
  void commit(int id, long hash) {
    if (!prefixCaching || hashed[id] || byHash.containsKey(hash)) {
      return;
    }
    hashed[id] = true;
    hashes[id] = hash;
    byHash.put(hash, id);
  }

  /** Drops a sequence's references; the tail is freed first so it is evicted before the shared head. */
  void release(int[] table, int count) {
    for (int i = count - 1; i >= 0; i--) {
      int id = table[i];
      if (--refs[id] == 0) {
        used--;
        if (hashed[id]) {
          evictable.add(id);
        } else {
          clean.add(id);
        }
      }
    }
  }

  private void ref(int id) {
    if (refs[id]++ == 0) {
      used++;
      evictable.remove(id);
    }
  }

  private int take() {
    int id;
    if (!clean.isEmpty()) {
      id = clean.poll();
    } else {
      var it = evictable.iterator();
      id = it.next();
      it.remove();
      byHash.remove(hashes[id]);
      hashed[id] = false;
    }
    refs[id] = 1;
    used++;
    return id;
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  private static long fnv64(long h, byte[] bytes) {
    for (byte b : bytes) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return h;
  }

  /** Registers the hashes of a sequence's blocks that became full, so later prompts can reuse them. */
  void commitFullBlocks(Sequence s, int kvTokens) {
    int full = Math.min(kvTokens / blockSize(), s.blockCount);
    while (s.committedBlocks < full) {
      int b = s.committedBlocks;
      if (b >= s.blockHashes.length) {
        s.blockHashes = java.util.Arrays.copyOf(s.blockHashes, s.blockHashes.length * 2);
      }
      if (s.blockHashes[b] == 0) {
        long parent = b == 0 ? 0 : s.blockHashes[b - 1];
        s.blockHashes[b] = blockHash(parent, s.tokens, b * blockSize(), s.adapter);
      }
      commit(s.blockTable[b], s.blockHashes[b]);
      s.committedBlocks++;
    }
  }
}
