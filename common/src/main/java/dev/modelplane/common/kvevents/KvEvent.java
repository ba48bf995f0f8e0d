package dev.modelplane.common.kvevents;

import java.util.List;

/**
 * One change to a model server's prefix cache. Block hashes are the server's 64-bit wire values, carried in a
 * {@code long} bit for bit (vLLM sends them as unsigned integers; compare them with {@link Long#compareUnsigned} if
 * order matters, which it never does here).
 */
public sealed interface KvEvent {

  /**
   * Consecutive full blocks that became cached, in order.
   *
   * @param blockHashes the new blocks' hashes, first to last
   * @param parentBlockHash the hash of the block before the first one, or null when the first block starts the
   *     sequence
   * @param tokenIds every token of the new blocks, concatenated ({@code blockHashes.length * blockSize} of them);
   *     unsigned 32-bit values held in an {@code int} (a real vocabulary is far smaller, but llm-d-inference-sim's
   *     stand-in tokenizer uses the whole range)
   * @param blockSize tokens per block
   * @param loraId the adapter's numeric id, or null for the base model
   * @param medium where the blocks live ({@code "GPU"}, or a CPU/disk tier), or null
   * @param loraName the adapter's name, or null for the base model
   * @param extraKeys per block, the extra values the server mixed into that block's hash (adapter name, cache
   *     salt, multimodal items), each a list or null; null when the server did not send them
   * @param groupIdx the KV-cache group of a hybrid model, or null when the server did not say
   */
  record BlockStored(long[] blockHashes, Long parentBlockHash, int[] tokenIds, int blockSize, Integer loraId,
      String medium, String loraName, List<List<Object>> extraKeys, Integer groupIdx) implements KvEvent {
  }

  /**
   * Blocks evicted from the cache.
   *
   * @param blockHashes the evicted blocks' hashes
   * @param medium the tier they left, or null
   * @param groupIdx the KV-cache group, or null
   */
  record BlockRemoved(long[] blockHashes, String medium, Integer groupIdx) implements KvEvent {
  }

  /** Every block of the server left the cache (a prefix-cache reset). */
  record AllBlocksCleared() implements KvEvent {
  }

  /**
   * An event of a type this version does not know; kept so a reader can count what it skipped.
   *
   * @param type the event's tag
   */
  record Unknown(String type) implements KvEvent {
  }
}
