package dev.modelplane.router.prefix.precise;

import dev.modelplane.common.kvevents.KvEvent;
import dev.modelplane.common.kvevents.KvEvent.AllBlocksCleared;
import dev.modelplane.common.kvevents.KvEvent.BlockRemoved;
import dev.modelplane.common.kvevents.KvEvent.BlockStored;
import dev.modelplane.common.kvevents.KvEvent.Unknown;
import dev.modelplane.common.kvevents.KvEventBatch;
import dev.modelplane.common.kvevents.VllmBlockHasher;
import dev.modelplane.router.plugin.PluginObserver;
import dev.modelplane.router.pool.EndpointId;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The precise prefix index of one pool, fed by its servers' KV-cache events: what each endpoint's server reports it
 * caches, plus the router's short-lived guesses about where it just sent a prompt.
 *
 * <p>A stored block is indexed under the key the router computes from the event's tokens with vLLM's
 * {@code sha256_cbor} chain (the configured seed, the event's extra keys, or the adapter's name when the server sent
 * none), continuing from the digest the index computed for the event's parent. So the index never depends on the
 * server's hash algorithm, only on its tokens; when the server does use {@code sha256_cbor} with the same seed, its
 * hashes equal the keys, which is counted to show that the settings match. Only full-attention blocks on the GPU
 * ({@code group_idx} 0 or absent, {@code medium} {@code GPU} or absent) of the configured block size are indexed.
 *
 * <p>Writes (events, endpoints joining and leaving) are serialised on the index; reads ({@link #match}) take no lock.
 */
public final class PoolIndex {
  private static final Logger LOG = LoggerFactory.getLogger(PoolIndex.class);
  /** Adapter names remembered per pool, at most (each is a string a server sent). */
  private static final int MAX_ADAPTERS = 4096;

  private final String pool;
  private final int blockSize;
  private final PluginObserver observer;
  private final VllmBlockHasher hasher;
  private final BlockIndex blocks;
  private final SpeculativeBlocks speculative;
  private final Set<EndpointId> members = ConcurrentHashMap.newKeySet();
  private final Set<EndpointId> publishing = ConcurrentHashMap.newKeySet();
  private final Set<String> adapters = ConcurrentHashMap.newKeySet();
  private final Set<EndpointId> warnedBlockSize = new HashSet<>();
  private boolean warnedHashes;

  /**
   * @param pool the pool's name in metrics and logs ({@code namespace/name})
   */
  PoolIndex(String pool, PrecisePrefixConfig config, PluginObserver observer) {
    this.pool = pool;
    this.blockSize = config.blockSize();
    this.observer = observer;
    this.hasher = new VllmBlockHasher(config.hashSeed());
    this.blocks = new BlockIndex(config.indexSize(), config.podCacheSize());
    this.speculative = new SpeculativeBlocks(config.speculativeTtl().toNanos(), config.indexSize());
  }

  /** What {@code /metrics} shows of one pool's index. */
  public record Status(String pool, boolean precise, int keys, long entries, int speculative) {
  }

  public String pool() {
    return pool;
  }

  /**
   * Whether the index is fed: some endpoint's server sent events that were indexed since it joined or last restarted.
   * Until then the scorer answers from the approximate index.
   */
  public boolean precise() {
    return !publishing.isEmpty();
  }

  /** Whether {@code model} is a LoRA adapter the pool's servers stored blocks for. */
  boolean isAdapter(String model) {
    return adapters.contains(model);
  }

  /** {@code pod} is in the pool: its events count from now on. */
  synchronized void join(EndpointId pod) {
    members.add(pod);
  }

  /** {@code pod} left the pool: everything about it goes at once, and events still on their way are ignored. */
  synchronized void leave(EndpointId pod) {
    members.remove(pod);
    warnedBlockSize.remove(pod);
    reset(pod, "left the pool");
  }

  /** {@code pod}'s server restarted (or its stream was replaced): its cache is empty. */
  synchronized void reset(EndpointId pod, String reason) {
    blocks.clear(pod);
    speculative.forget(pod);
    if (publishing.remove(pod) && publishing.isEmpty()) {
      LOG.atInfo().addKeyValue("pool", pool).addKeyValue("endpoint", pod).addKeyValue("reason", reason)
          .log("precise prefix index: no endpoint's events are indexed any more; scoring from the approximate index");
    }
  }

  /** Applies a batch of {@code pod}'s events, in order. */
  synchronized void apply(EndpointId pod, KvEventBatch batch) {
    if (!members.contains(pod)) {
      return;
    }
    observer.kvEventBatch(pool);
    boolean indexed = false;
    for (KvEvent event : batch.events()) {
      indexed |= switch (event) {
        case BlockStored s -> {
          observer.kvEvent(pool, "BlockStored");
          yield stored(pod, s);
        }
        case BlockRemoved r -> {
          observer.kvEvent(pool, "BlockRemoved");
          yield removed(pod, r);
        }
        case AllBlocksCleared c -> {
          observer.kvEvent(pool, "AllBlocksCleared");
          blocks.clear(pod);
          speculative.forget(pod);
          yield true;
        }
        case Unknown u -> {
          observer.kvEvent(pool, "Unknown");
          yield false;
        }
      };
    }
    if (indexed && publishing.add(pod) && publishing.size() == 1) {
      LOG.atInfo().addKeyValue("pool", pool).addKeyValue("endpoint", pod)
          .log("precise prefix index: events are indexed; scoring from the servers' caches");
    }
  }

  private boolean stored(EndpointId pod, BlockStored s) {
    if (!indexedGroup(s.groupIdx(), s.medium())) {
      return false;
    }
    if (s.blockSize() != blockSize) {
      if (warnedBlockSize.add(pod)) {
        LOG.atWarn().addKeyValue("pool", pool).addKeyValue("endpoint", pod).addKeyValue("block_size", s.blockSize())
            .addKeyValue("configured", blockSize).log("precise prefix index: the server's blocks have another size "
                + "than tokenProcessorConfig.blockSize; its events are skipped until they agree");
      }
      return skipped("block_size");
    }
    long[] hashes = s.blockHashes();
    List<List<Object>> extra = s.extraKeys();
    if (s.tokenIds().length != (long) hashes.length * blockSize || (extra != null && extra.size() != hashes.length)) {
      return skipped("inconsistent");
    }
    byte[] parent = null;
    Long parentHash = s.parentBlockHash();
    // llm-d's simulator writes 0 for "no parent", vLLM nil.
    if (parentHash != null && (parentHash != 0 || blocks.digest(pod, 0) != null)) {
      parent = blocks.digest(pod, parentHash);
      if (parent == null) {
        return skipped("unknown_parent");
      }
    }
    int agree = 0;
    for (int i = 0; i < hashes.length; i++) {
      // Without extra keys, a block's are the adapter's name: a cache salt sits on a request's first block only,
      // which a server that sends no extra keys gives no way to see.
      List<?> keys = extra != null ? extra.get(i) : VllmBlockHasher.extraKeys(i, s.loraName(), null);
      parent = hasher.hashBlock(parent, s.tokenIds(), i * blockSize, blockSize, keys);
      if (VllmBlockHasher.wireValue(parent) == hashes[i]) {
        agree++;
      }
      blocks.store(pod, hashes[i], parent);
    }
    observer.kvBlockHashes(pool, true, agree);
    observer.kvBlockHashes(pool, false, hashes.length - agree);
    if (agree < hashes.length && !warnedHashes) {
      warnedHashes = true;
      LOG.atInfo().addKeyValue("pool", pool).addKeyValue("endpoint", pod).log("precise prefix index: the server's "
          + "block hashes differ from the router's (it does not run --prefix-caching-hash-algo sha256_cbor with "
          + "PYTHONHASHSEED equal to hashSeed); blocks are indexed from their tokens all the same");
    }
    if (s.loraName() != null && adapters.size() < MAX_ADAPTERS) {
      adapters.add(s.loraName());
    }
    return true;
  }

  private boolean removed(EndpointId pod, BlockRemoved r) {
    if (!indexedGroup(r.groupIdx(), r.medium())) {
      return false;
    }
    int unknown = 0;
    for (long hash : r.blockHashes()) {
      Long key = blocks.remove(pod, hash);
      if (key == null) {
        unknown++;
      } else {
        speculative.forget(key, pod);
      }
    }
    if (unknown > 0) {
      observer.kvEventsSkipped(pool, "unknown_block", unknown);
    }
    return unknown < r.blockHashes().length;
  }

  /** Full attention on the GPU: hybrid models' other groups and offloaded tiers have blocks of their own. */
  private boolean indexedGroup(Integer groupIdx, String medium) {
    if (groupIdx != null && groupIdx != 0) {
      return skipped("kv_cache_group");
    }
    if (medium != null && !medium.equals("GPU")) {
      return skipped("medium");
    }
    return true;
  }

  private boolean skipped(String reason) {
    observer.kvEventsSkipped(pool, reason, 1);
    return false;
  }

  /**
   * For each of {@code pods}, how many leading blocks of {@code keys} it holds, by its server's events or a guess
   * still valid at {@code nowNanos}.
   */
  int[] match(long[] keys, EndpointId[] pods, long nowNanos) {
    int[] matched = new int[pods.length];
    boolean[] stopped = new boolean[pods.length];
    int running = pods.length;
    for (int k = 0; k < keys.length && running > 0; k++) {
      EndpointId[] holders = blocks.holders(keys[k]);
      for (int c = 0; c < pods.length; c++) {
        if (stopped[c]) {
          continue;
        }
        if (contains(holders, pods[c]) || speculative.holds(keys[k], pods[c], nowNanos)) {
          matched[c]++;
        } else {
          stopped[c] = true;
          running--;
        }
      }
    }
    return matched;
  }

  /** The router sent {@code pod} a prompt with these blocks: guess that it holds them for the TTL. */
  void speculate(long[] keys, EndpointId pod, long nowNanos) {
    if (members.contains(pod)) {
      speculative.mark(keys, pod, nowNanos);
    }
  }

  Status status() {
    return new Status(pool, precise(), blocks.keyCount(), blocks.entries(), speculative.size());
  }

  /** Whether no endpoint of the pool is left. */
  boolean isEmpty() {
    return members.isEmpty();
  }

  /** Every key with its endpoints (from events only), to compare two indexes. */
  Map<Long, Set<EndpointId>> contents() {
    return blocks.contents();
  }

  private static boolean contains(EndpointId[] holders, EndpointId pod) {
    for (EndpointId h : holders) {
      if (h.equals(pod)) {
        return true;
      }
    }
    return false;
  }
}
