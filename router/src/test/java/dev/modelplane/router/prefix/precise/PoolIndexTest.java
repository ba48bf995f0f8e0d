package dev.modelplane.router.prefix.precise;

import static dev.modelplane.router.prefix.precise.EngineCache.concat;
import static dev.modelplane.router.prefix.precise.EngineCache.tokens;
import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.common.kvevents.KvEvent;
import dev.modelplane.common.kvevents.KvEvent.AllBlocksCleared;
import dev.modelplane.common.kvevents.KvEvent.BlockRemoved;
import dev.modelplane.common.kvevents.KvEvent.BlockStored;
import dev.modelplane.common.kvevents.KvEventBatch;
import dev.modelplane.common.kvevents.VllmBlockHasher;
import dev.modelplane.router.pool.EndpointId;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The index built from events: chaining, removal, resets, adapters and salts, what is skipped, the bounds. */
class PoolIndexTest {
  private static final String POOL = "ns/pool";
  private static final EndpointId A = new EndpointId("ns", "a");
  private static final EndpointId B = new EndpointId("ns", "b");
  private static final EndpointId C = new EndpointId("ns", "c");
  private static final int BLOCK = 4;

  private final Counters counters = new Counters();
  private final PoolIndex index = index(PrecisePrefixConfig.DEFAULT.indexSize(), 10);

  private PoolIndex index(int size, int podCacheSize) {
    PrecisePrefixConfig d = PrecisePrefixConfig.DEFAULT;
    PoolIndex i = new PoolIndex(POOL, new PrecisePrefixConfig(BLOCK, "42", d.zmqEndpoint(), d.topicFilter(), true,
        d.socketPort(), 0, size, podCacheSize, true, Duration.ofSeconds(2)), counters);
    i.join(A);
    i.join(B);
    i.join(C);
    return i;
  }

  private static void apply(PoolIndex index, EndpointId pod, KvEvent... events) {
    index.apply(pod, new KvEventBatch(1.0, List.of(events), 0));
  }

  /** The router's keys for a prompt: what the scorer computes for a request. */
  private static long[] keys(int[] tokens, String lora, String salt) {
    return Arrays.stream(new VllmBlockHasher("42").hashPrompt(tokens, BLOCK, lora, salt))
        .mapToLong(VllmBlockHasher::wireValue).toArray();
  }

  private int[] match(PoolIndex index, int[] prompt, String lora, String salt) {
    return index.match(keys(prompt, lora, salt), new EndpointId[] {A, B, C}, 0);
  }

  @Test
  void storedBlocksAreFoundUnderTheRequestsKeysAndTheServersHashesAgree() {
    EngineCache engine = new EngineCache("42", BLOCK, true);
    int[] prompt = tokens(1, 14); // three full blocks and two tokens
    apply(index, A, engine.serve(prompt, null, null));
    assertThat(match(index, prompt, null, null)).containsExactly(3, 0, 0);
    assertThat(index.precise()).isTrue();
    assertThat(counters.get("agree:" + POOL)).isEqualTo(3);
    assertThat(counters.get("disagree:" + POOL)).isZero();
    assertThat(counters.get("events:" + POOL + ":BlockStored")).isEqualTo(1);
    assertThat(counters.get("batches:" + POOL)).isEqualTo(1);
  }

  @Test
  void aLaterEventContinuesTheChainFromItsParent() {
    EngineCache engine = new EngineCache("42", BLOCK, false);
    int[] system = tokens(1, 8);
    int[] longer = concat(system, tokens(100, 8));
    apply(index, B, engine.serve(system, null, null));
    BlockStored second = engine.serve(longer, null, null);
    assertThat(second.parentBlockHash()).isNotNull();
    assertThat(second.blockHashes()).hasSize(2);
    apply(index, B, second);
    assertThat(match(index, longer, null, null)).containsExactly(0, 4, 0);
    assertThat(index.status().keys()).isEqualTo(4);
  }

  @Test
  void aServerWithAnotherHashAlgorithmIsIndexedFromItsTokensAndCountedAsDisagreeing() {
    EngineCache engine = new EngineCache("some other seed", BLOCK, false);
    int[] prompt = tokens(1, 12);
    apply(index, A, engine.serve(prompt, null, null));
    apply(index, A, engine.serve(concat(prompt, tokens(50, 4)), null, null));
    assertThat(match(index, concat(prompt, tokens(50, 4)), null, null)).containsExactly(4, 0, 0);
    assertThat(counters.get("disagree:" + POOL)).isEqualTo(4);
    assertThat(counters.get("agree:" + POOL)).isZero();
  }

  @Test
  void anEventWhoseParentTheIndexNeverSawIsSkippedAndCounted() {
    EngineCache engine = new EngineCache("42", BLOCK, false);
    int[] system = tokens(1, 8);
    engine.serve(system, null, null); // published before the router listened
    apply(index, A, engine.serve(concat(system, tokens(100, 8)), null, null));
    assertThat(match(index, concat(system, tokens(100, 8)), null, null)).containsExactly(0, 0, 0);
    assertThat(counters.get("skipped:" + POOL + ":unknown_parent")).isEqualTo(1);
    assertThat(index.precise()).as("nothing was indexed").isFalse();
  }

  @Test
  void aZeroParentIsTheStartOfTheChainAsLlmDsSimulatorWritesIt() {
    int[] prompt = tokens(1, 8);
    long[] hashes = {11, 12};
    apply(index, A, new BlockStored(hashes, 0L, prompt, BLOCK, null, null, null, null, null));
    assertThat(match(index, prompt, null, null)).containsExactly(2, 0, 0);
  }

  @Test
  void aRemovedBlockEndsTheMatchThereAndUnknownRemovalsAreCounted() {
    EngineCache engine = new EngineCache("42", BLOCK, true);
    int[] prompt = tokens(1, 16);
    apply(index, A, engine.serve(prompt, null, null));
    apply(index, B, new EngineCache("42", BLOCK, true).serve(prompt, null, null));
    long[] hashes = engine.hashes(prompt, null, null);
    apply(index, A, engine.evict(hashes[2]), new BlockRemoved(new long[] {999}, null, null));
    assertThat(match(index, prompt, null, null)).containsExactly(2, 4, 0);
    assertThat(counters.get("skipped:" + POOL + ":unknown_block")).isEqualTo(1);
    assertThat(index.status().entries()).isEqualTo(7);
  }

  @Test
  void allBlocksClearedResetAndLeavingForgetOneEndpointAtOnce() {
    int[] prompt = tokens(1, 8);
    for (EndpointId pod : List.of(A, B, C)) {
      apply(index, pod, new EngineCache("42", BLOCK, true).serve(prompt, null, null));
    }
    apply(index, A, new AllBlocksCleared());
    index.reset(B, "server restarted");
    assertThat(match(index, prompt, null, null)).containsExactly(0, 0, 2);
    index.leave(C);
    assertThat(match(index, prompt, null, null)).containsExactly(0, 0, 0);
    assertThat(index.precise()).as("A still publishes").isTrue();
    apply(index, C, new EngineCache("42", BLOCK, true).serve(prompt, null, null));
    assertThat(match(index, prompt, null, null)).as("a left endpoint's late events are ignored")
        .containsExactly(0, 0, 0);
    assertThat(index.status().entries()).isZero();
  }

  @Test
  void anAdaptersNameIsInEveryBlockWithOrWithoutExtraKeysInTheEvent() {
    int[] prompt = tokens(1, 8);
    apply(index, A, new EngineCache("42", BLOCK, false).serve(prompt, "my-lora", null));
    apply(index, B, new EngineCache("42", BLOCK, true).serve(prompt, "my-lora", null));
    assertThat(match(index, prompt, "my-lora", null)).containsExactly(2, 2, 0);
    assertThat(match(index, prompt, null, null)).as("the base model's blocks differ").containsExactly(0, 0, 0);
    assertThat(index.isAdapter("my-lora")).isTrue();
    assertThat(counters.get("agree:" + POOL)).isEqualTo(4);
  }

  @Test
  void aCacheSaltInTheEventsExtraKeysScopesTheFirstBlockAndSoTheChain() {
    int[] prompt = tokens(1, 12);
    EngineCache engine = new EngineCache("42", BLOCK, true);
    apply(index, A, engine.serve(prompt, null, "tenant-a"));
    assertThat(match(index, prompt, null, "tenant-a")).containsExactly(3, 0, 0);
    assertThat(match(index, prompt, null, "tenant-b")).containsExactly(0, 0, 0);
    assertThat(match(index, prompt, null, null)).containsExactly(0, 0, 0);
    // The next turn's event has a parent, so no block 0 and no salt of its own: the chain carries it.
    apply(index, A, engine.serve(concat(prompt, tokens(70, 4)), null, "tenant-a"));
    assertThat(match(index, concat(prompt, tokens(70, 4)), null, "tenant-a")).containsExactly(4, 0, 0);
  }

  @Test
  void blocksOfAnotherSizeGroupOrMediumAreSkippedAndCounted() {
    int[] prompt = tokens(1, 16);
    apply(index, A, new EngineCache("42", 16, true).serve(prompt, null, null),
        new EngineCache("42", 16, true).serve(tokens(500, 16), null, null));
    BlockStored ok = new EngineCache("42", BLOCK, true).serve(prompt, null, null);
    apply(index, B, new BlockStored(ok.blockHashes(), null, ok.tokenIds(), BLOCK, null, "GPU", null, null, 1));
    apply(index, C, new BlockStored(ok.blockHashes(), null, ok.tokenIds(), BLOCK, null, "CPU", null, null, 0));
    apply(index, C, new BlockStored(ok.blockHashes(), null, Arrays.copyOf(ok.tokenIds(), 15), BLOCK, null, null, null,
        null, null));
    assertThat(match(index, prompt, null, null)).containsExactly(0, 0, 0);
    assertThat(counters.get("skipped:" + POOL + ":block_size")).isEqualTo(2);
    assertThat(counters.get("skipped:" + POOL + ":kv_cache_group")).isEqualTo(1);
    assertThat(counters.get("skipped:" + POOL + ":medium")).isEqualTo(1);
    assertThat(counters.get("skipped:" + POOL + ":inconsistent")).isEqualTo(1);
    assertThat(index.precise()).isFalse();
    apply(index, B, new BlockStored(ok.blockHashes(), null, ok.tokenIds(), BLOCK, null, "GPU", null, null, 0));
    assertThat(match(index, prompt, null, null)).containsExactly(0, 4, 0);
  }

  @Test
  void eachBlockKeepsTheEndpointsThatStoredItLast() {
    PoolIndex small = index(1000, 2);
    int[] prompt = tokens(1, 8);
    for (EndpointId pod : List.of(A, B, C)) {
      apply(small, pod, new EngineCache("42", BLOCK, true).serve(prompt, null, null));
    }
    assertThat(match(small, prompt, null, null)).containsExactly(0, 2, 2);
    assertThat(small.status().entries()).isEqualTo(4);
    apply(small, B, new EngineCache("42", BLOCK, true).serve(tokens(1, 4), null, null));
    assertThat(small.contents().get(keys(prompt, null, null)[0])).as("B stored block 0 again: now the latest")
        .containsExactly(C, B);
  }

  @Test
  void theIndexKeepsTheBlocksStoredLastAndForgetsTheRestWithTheirChains() {
    PoolIndex small = index(4, 10);
    EngineCache engine = new EngineCache("42", BLOCK, false);
    int[] first = tokens(1, 12);
    int[] second = tokens(1000, 12);
    apply(small, A, engine.serve(first, null, null));
    apply(small, A, engine.serve(second, null, null));
    assertThat(small.status().keys()).isEqualTo(4);
    assertThat(match(small, second, null, null)).containsExactly(3, 0, 0);
    assertThat(match(small, first, null, null)).as("the oldest blocks went").containsExactly(0, 0, 0);
    assertThat(small.contents()).containsKey(keys(first, null, null)[2]);
    // The first prompt's first block is gone from the chains too: its child cannot be indexed.
    apply(small, A, new BlockStored(new long[] {77}, engine.hashes(first, null, null)[0], tokens(5, 4), BLOCK, null,
        null, null, null, null));
    assertThat(counters.get("skipped:" + POOL + ":unknown_parent")).isEqualTo(1);
  }
}
