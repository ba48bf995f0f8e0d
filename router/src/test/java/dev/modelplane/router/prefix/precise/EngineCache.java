package dev.modelplane.router.prefix.precise;

import dev.modelplane.common.kvevents.KvEvent.BlockRemoved;
import dev.modelplane.common.kvevents.KvEvent.BlockStored;
import dev.modelplane.common.kvevents.VllmBlockHasher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a vLLM server with prefix caching publishes for the prompts it serves: per request, one {@code BlockStored}
 * with the full blocks it did not cache yet, chained on the last block it had. Its block hashes are
 * {@code sha256_cbor} with its own seed (a seed other than the router's stands for another hash algorithm).
 */
final class EngineCache {
  private final VllmBlockHasher hasher;
  private final int blockSize;
  private final boolean sendsExtraKeys;
  private final Set<Long> cached = new HashSet<>();

  EngineCache(String seed, int blockSize, boolean sendsExtraKeys) {
    this.hasher = new VllmBlockHasher(seed);
    this.blockSize = blockSize;
    this.sendsExtraKeys = sendsExtraKeys;
  }

  /** The server's hashes of the prompt's full blocks. */
  long[] hashes(int[] tokens, String lora, String salt) {
    return Arrays.stream(hasher.hashPrompt(tokens, blockSize, lora, salt)).mapToLong(VllmBlockHasher::wireValue)
        .toArray();
  }

  /** The event for serving {@code tokens}, or null when every full block was cached already. */
  BlockStored serve(int[] tokens, String lora, String salt) {
    long[] all = hashes(tokens, lora, salt);
    int first = 0;
    while (first < all.length && cached.contains(all[first])) {
      first++;
    }
    if (first == all.length) {
      return null;
    }
    List<List<Object>> extra = new ArrayList<>();
    for (int i = first; i < all.length; i++) {
      cached.add(all[i]);
      extra.add(VllmBlockHasher.extraKeys(i, lora, salt));
    }
    return new BlockStored(Arrays.copyOfRange(all, first, all.length), first == 0 ? null : all[first - 1],
        Arrays.copyOfRange(tokens, first * blockSize, all.length * blockSize), blockSize, null, "GPU", lora,
        sendsExtraKeys ? extra : null, 0);
  }

  /** The event for evicting one cached block. */
  BlockRemoved evict(long hash) {
    cached.remove(hash);
    return new BlockRemoved(new long[] {hash}, "GPU", null);
  }

  /** Token ids 0..n-1 offset by {@code from}: a prompt distinct for each {@code from}. */
  static int[] tokens(int from, int n) {
    int[] t = new int[n];
    for (int i = 0; i < n; i++) {
      t[i] = from + i;
    }
    return t;
  }

  static int[] concat(int[] a, int[] b) {
    int[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
