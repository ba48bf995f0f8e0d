package dev.modelplane.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.common.kvevents.KvEvent;
import dev.modelplane.common.kvevents.KvEvent.BlockRemoved;
import dev.modelplane.common.kvevents.KvEvent.BlockStored;
import dev.modelplane.common.kvevents.VllmBlockHasher;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class KvCacheTest {

  private static Sequence seq(int[] prompt, String adapter) {
    return new Sequence("r", prompt, List.of(), new int[0], "stop", 1, adapter, null);
  }

  /** Gives {@code s} the blocks of {@code table} and caches its full blocks up to {@code tokens}. */
  private static void hold(KvCache kv, Sequence s, int[] table, int tokens) {
    s.blockTable = table;
    s.blockCount = table.length;
    kv.commitFullBlocks(s, tokens);
  }

  @Test
  void reusesChainedPrefixesAndEvictsLeastRecentlyUsed() {
    KvCache kv = new KvCache(4, 2, true, "", false);
    Sequence a = seq(new int[] {1, 2, 3, 4, 5}, null);
    long[] ha = kv.prefixHashes(a, 4);
    int[] ta = kv.allocate(ha, 0, 5);
    assertThat(ta).hasSize(3);
    assertThat(kv.usage()).isEqualTo(0.75);
    hold(kv, a, ta, 4);
    kv.release(ta, 3);
    assertThat(kv.usage()).isZero();
    // Same first block, different second: only one block matches, because hashes chain.
    assertThat(kv.matchedBlocks(kv.prefixHashes(seq(new int[] {1, 2, 9, 9}, null), 4))).isEqualTo(1);
    assertThat(kv.matchedBlocks(ha)).isEqualTo(2);
    // An adapter changes every hash.
    assertThat(kv.matchedBlocks(kv.prefixHashes(seq(new int[] {1, 2, 3, 4, 5}, "lora"), 4))).isZero();
    // Four fresh blocks: the clean ones go first, then the cached tail (freed first), then the head.
    int[] c = kv.allocate(kv.prefixHashes(seq(new int[] {7, 7, 7, 7, 7, 7, 7}, null), 6), 0, 7);
    assertThat(c).hasSize(4);
    assertThat(kv.matchedBlocks(ha)).isZero();
    assertThat(kv.allocate(ha, 0, 2)).isNull();
  }

  @Test
  void blockHashesAreVllmsSha256CborChain() {
    KvCache kv = new KvCache(8, 4, true, "42", false);
    int[] prompt = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    long[] hashes = kv.prefixHashes(seq(prompt, null), 9);
    assertThat(hashes).containsExactly(5988051177307384287L, Long.parseUnsignedLong("11214766589215907092"));
    byte[][] lora = new VllmBlockHasher("42").hashPrompt(prompt, 4, "my-lora", null);
    assertThat(kv.prefixHashes(seq(prompt, "my-lora"), 8)).containsExactly(VllmBlockHasher.wireValue(lora[0]),
        VllmBlockHasher.wireValue(lora[1]));
  }

  @Test
  void recordsWhatAVllmServerPublishes() {
    KvCache kv = new KvCache(4, 2, true, "42", true);
    Sequence a = seq(new int[] {1, 2, 3, 4, 5}, "my-lora");
    long[] ha = kv.prefixHashes(a, 4);
    int[] ta = kv.allocate(ha, 0, 5);
    a.blockTable = ta;
    a.blockCount = ta.length;
    kv.commitFullBlocks(a, 2);
    kv.commitFullBlocks(a, 5);
    List<KvEvent> events = kv.takeEvents();
    assertThat(events).hasSize(2);
    BlockStored first = (BlockStored) events.get(0);
    assertThat(first.blockHashes()).containsExactly(ha[0]);
    assertThat(first.parentBlockHash()).isNull();
    assertThat(first.tokenIds()).containsExactly(1, 2);
    assertThat(first.blockSize()).isEqualTo(2);
    assertThat(first.loraName()).isEqualTo("my-lora");
    assertThat(first.loraId()).isEqualTo(KvCache.loraId("my-lora"));
    assertThat(first.medium()).isEqualTo("GPU");
    assertThat(first.extraKeys()).containsExactly(List.of("my-lora"));
    BlockStored second = (BlockStored) events.get(1);
    assertThat(second.parentBlockHash()).isEqualTo(ha[0]);
    assertThat(second.blockHashes()).containsExactly(ha[1]);
    assertThat(second.tokenIds()).containsExactly(3, 4);
    assertThat(kv.takeEvents()).isEmpty();

    kv.release(ta, 3);
    Sequence b = seq(new int[] {9, 9, 9, 9, 9, 9, 9}, null);
    int[] tb = kv.allocate(kv.prefixHashes(b, 6), 0, 7);
    assertThat(tb).hasSize(4);
    // Two clean blocks first, then the cached tail, then the head: each eviction is one BlockRemoved.
    assertThat(kv.takeEvents()).map(e -> ((BlockRemoved) e).blockHashes()[0]).containsExactly(ha[1], ha[0]);
  }

  @Test
  void aBlockWhoseContentIsAlreadyCachedIsNotStoredTwice() {
    KvCache kv = new KvCache(8, 2, true, "", true);
    Sequence a = seq(new int[] {1, 2, 3, 4}, null);
    Sequence b = seq(new int[] {1, 2, 3, 4}, null);
    int[] ta = kv.allocate(kv.prefixHashes(a, 4), 0, 4);
    int[] tb = kv.allocate(kv.prefixHashes(b, 4), 0, 4); // admitted together, before a's blocks were cached
    hold(kv, a, ta, 4);
    hold(kv, b, tb, 4);
    assertThat(kv.takeEvents()).hasSize(1);
    assertThat(Arrays.stream(ta).distinct().count()).isEqualTo(2);
  }

  @Test
  void withoutPrefixCachingNothingIsRecorded() {
    KvCache kv = new KvCache(4, 2, false, "", true);
    Sequence a = seq(new int[] {1, 2, 3, 4}, null);
    hold(kv, a, kv.allocate(kv.prefixHashes(a, 4), 0, 4), 4);
    assertThat(kv.takeEvents()).isEmpty();
  }
}
