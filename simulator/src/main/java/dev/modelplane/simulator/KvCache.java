package dev.modelplane.simulator;

import dev.modelplane.common.kvevents.KvEvent;
import dev.modelplane.common.kvevents.KvEvent.BlockRemoved;
import dev.modelplane.common.kvevents.KvEvent.BlockStored;
import dev.modelplane.common.kvevents.VllmBlockHasher;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * vLLM's paged KV cache in miniature: {@code numBlocks} blocks of {@code blockSize} tokens. A full block is named by
 * vLLM's {@code sha256_cbor} hash, chained from its parent's digest over its token ids and the adapter it was
 * computed for, so a hash names a whole prefix and matches what a vLLM server started with the same seed and block
 * size would publish. Blocks nobody references but that hold a hash stay cached and are evicted least recently used
 * first; usage counts referenced blocks only, as {@code vllm:kv_cache_usage_perc} does.
 *
 * <p>When asked to, the cache records the events a vLLM server publishes: a {@code BlockStored} for each run of
 * blocks that became cached, a {@code BlockRemoved} for each evicted one. Not thread-safe: the engine thread owns
 * it.
 */
final class KvCache {
  private static final String GPU = "GPU";

  private final int numBlocks;
  private final int blockSize;
  private final boolean prefixCaching;
  private final VllmBlockHasher hasher;
  private final List<KvEvent> events;
  private final int[] refs;
  private final long[] hashes;
  private final boolean[] hashed;
  private final ArrayDeque<Integer> clean = new ArrayDeque<>();
  /** Cached blocks with no reference, least recently freed first. */
  private final LinkedHashSet<Integer> evictable = new LinkedHashSet<>();
  private final Map<Long, Integer> byHash = new HashMap<>();
  private final boolean fastHashes;
  private int used;

  /**
   * @param recordEvents whether to keep the events a vLLM server would publish, for {@link #takeEvents}
   */
  KvCache(int numBlocks, int blockSize, boolean prefixCaching, String hashSeed, boolean recordEvents) {
    this(numBlocks, blockSize, prefixCaching, hashSeed, recordEvents, false);
  }

  /**
   * @param fastHashes name blocks by a 64-bit hash chained over the same inputs instead of vLLM's SHA-256: the cache
   *     behaves the same (barring a 64-bit collision) at a fraction of the cost; for virtual runs, whose events a
   *     router reads in-process and re-hashes from their token ids anyway
   */
  KvCache(int numBlocks, int blockSize, boolean prefixCaching, String hashSeed, boolean recordEvents,
      boolean fastHashes) {
    this.fastHashes = fastHashes;
    this.numBlocks = numBlocks;
    this.blockSize = blockSize;
    this.prefixCaching = prefixCaching;
    this.hasher = new VllmBlockHasher(hashSeed);
    this.events = recordEvents && prefixCaching ? new ArrayList<>() : null;
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

  /**
   * The hashes of the first {@code blocks} full blocks of {@code s}, computed once per sequence (a content hash does
   * not change when the sequence is preempted and admitted again).
   */
  long[] prefixHashes(Sequence s, int length) {
    int blocks = length / blockSize;
    ensureHashes(s, blocks);
    return Arrays.copyOf(s.blockHashes, blocks);
  }

  private void ensureHashes(Sequence s, int blocks) {
    if (s.hashedBlocks >= blocks) {
      return;
    }
    if (s.blockDigests.length < blocks) {
      int size = Math.max(blocks, s.blockDigests.length * 2);
      s.blockDigests = Arrays.copyOf(s.blockDigests, size);
      s.blockHashes = Arrays.copyOf(s.blockHashes, size);
    }
    if (fastHashes) {
      long adapter = s.adapter == null ? 0 : s.adapter.hashCode() * 0x9e3779b97f4a7c15L;
      for (int b = s.hashedBlocks; b < blocks; b++) {
        long h = b == 0 ? 0x2545f4914f6cdd1dL ^ adapter : s.blockHashes[b - 1];
        for (int i = b * blockSize, end = i + blockSize; i < end; i++) {
          h = (h ^ s.tokens[i]) * 0x100000001b3L;
          h ^= h >>> 29;
        }
        h = (h ^ (h >>> 31)) * 0xbf58476d1ce4e5b9L;
        s.blockHashes[b] = h ^ (h >>> 33);
      }
      s.hashedBlocks = blocks;
      return;
    }
    for (int b = s.hashedBlocks; b < blocks; b++) {
      byte[] parent = b == 0 ? null : s.blockDigests[b - 1];
      byte[] digest = hasher.hashBlock(parent, s.tokens, b * blockSize, blockSize,
          VllmBlockHasher.extraKeys(b, s.adapter, null));
      s.blockDigests[b] = digest;
      s.blockHashes[b] = VllmBlockHasher.wireValue(digest);
    }
    s.hashedBlocks = blocks;
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

  /**
   * Records that block {@code id} is now full with content hash {@code hash}, so later requests can reuse it. Returns
   * false when nothing changed: no prefix caching, the block is already cached, or another block holds the same
   * content (this one is then freed as uncached).
   */
  private boolean commit(int id, long hash) {
    if (!prefixCaching || hashed[id] || byHash.containsKey(hash)) {
      return false;
    }
    hashed[id] = true;
    hashes[id] = hash;
    byHash.put(hash, id);
    return true;
  }

  /** The events recorded since the last call, oldest first; empty when events are not recorded. */
  List<KvEvent> takeEvents() {
    if (events == null || events.isEmpty()) {
      return List.of();
    }
    List<KvEvent> out = List.copyOf(events);
    events.clear();
    return out;
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
      if (events != null) {
        events.add(new BlockRemoved(new long[] {hashes[id]}, GPU, 0));
      }
    }
    refs[id] = 1;
    used++;
    return id;
  }

  /** Registers the hashes of a sequence's blocks that became full, so later prompts can reuse them. */
  void commitFullBlocks(Sequence s, int kvTokens) {
    int full = Math.min(kvTokens / blockSize, s.blockCount);
    if (s.committedBlocks >= full) {
      return;
    }
    ensureHashes(s, full);
    int runStart = -1;
    for (int b = s.committedBlocks; b < full; b++) {
      if (commit(s.blockTable[b], s.blockHashes[b])) {
        runStart = runStart < 0 ? b : runStart;
      } else if (runStart >= 0) {
        stored(s, runStart, b);
        runStart = -1;
      }
    }
    if (runStart >= 0) {
      stored(s, runStart, full);
    }
    s.committedBlocks = full;
  }

  /** Records one {@code BlockStored} for blocks {@code [from, to)} of {@code s}, as vLLM's block pool does. */
  private void stored(Sequence s, int from, int to) {
    if (events == null) {
      return;
    }
    List<List<Object>> extra = new ArrayList<>(to - from);
    for (int b = from; b < to; b++) {
      extra.add(VllmBlockHasher.extraKeys(b, s.adapter, null));
    }
    events.add(new BlockStored(Arrays.copyOfRange(s.blockHashes, from, to),
        from == 0 ? null : s.blockHashes[from - 1], Arrays.copyOfRange(s.tokens, from * blockSize, to * blockSize),
        blockSize, s.adapter == null ? null : loraId(s.adapter), GPU, s.adapter, extra, 0));
  }

  /** A stable positive id for an adapter name (vLLM numbers adapters as it loads them). */
  static int loraId(String adapter) {
    return Math.floorMod(adapter.hashCode(), 1 << 20) + 1;
  }
}
