package dev.modelplane.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.common.tokenizer.WordTokenizer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The engine-step scheduler's arithmetic, step by step without its thread: token budget, decode first, chunked
 * prefill, sequence limit, prefix-cache hits, recompute preemption, and step prices that follow the batch.
 */
class StepEngineTest {
  /** Records what a sequence emitted. */
  static final class Recorder implements Sequence.Listener {
    int tokens;
    String finish;

    @Override
    public void onToken(Sequence seq, int index) {
      assertThat(index).isEqualTo(tokens);
      tokens++;
    }

    @Override
    public void onFinish(Sequence seq, String reason) {
      finish = reason;
    }
  }

  private final List<Recorder> recorders = new ArrayList<>();
  private long now = 1_000_000_000L;

  static SimulatorConfig config() {
    return SimulatorConfig.of("m").preset("llama-3.1-8b-h100").maxNumBatchedTokens(64).maxNumSeqs(4)
        .kvCacheSize(64).hashSeed("");
  }

  static StepEngine engine(SimulatorConfig c) {
    assertThat(c.problems()).isEmpty();
    EngineMetrics m = new EngineMetrics("m", c.blockSize(), c.kvCacheSize(), c.maxModelLen(), c.enableKvcache());
    return new StepEngine(c, m, new ModelClock(1.0));
  }

  static int[] prompt(int base, int n) {
    int[] ids = new int[n];
    for (int i = 0; i < n; i++) {
      ids[i] = base + i;
    }
    return ids;
  }

  Sequence submit(StepEngine e, int[] prompt, int output) {
    Recorder r = new Recorder();
    recorders.add(r);
    int[] outputIds = new int[output];
    java.util.Arrays.fill(outputIds, WordTokenizer.id("x "));
    Sequence s = new Sequence("r" + recorders.size(), prompt, Collections.nCopies(output, "x "), outputIds, "length",
        output, null, r);
    assertThat(e.submit(s)).isNull();
    e.drainInbox();
    return s;
  }

  /** Runs one step at the next model instant; returns its price in nanoseconds. */
  long step(StepEngine e) {
    now += 1_000_000_000L;
    e.drainInbox();
    long swap = e.schedule(now);
    long price = Math.round(e.cost.stepNanos(e.batch)) + swap;
    e.finishStep(now + price);
    return price;
  }

  @Test
  void decodesGoFirstAndPrefillsFillTheRestOfTheBudgetInChunks() {
    StepEngine e = engine(config());
    Sequence a = submit(e, prompt(1000, 20), 10);
    Sequence b = submit(e, prompt(2000, 20), 10);
    step(e);
    assertThat(e.batch.prefillTokens()).isEqualTo(40);
    assertThat(a.generated).isEqualTo(1);
    assertThat(b.generated).isEqualTo(1);

    Sequence c = submit(e, prompt(3000, 100), 5);
    step(e);
    assertThat(e.batch.decodeSeqs()).isEqualTo(2);
    assertThat(e.batch.prefillTokens()).isEqualTo(62);
    assertThat(c.computed).isEqualTo(62);
    assertThat(c.generated).isZero();
    step(e);
    assertThat(e.batch.decodeSeqs()).isEqualTo(2);
    assertThat(e.batch.prefillTokens()).isEqualTo(38);
    assertThat(c.generated).isEqualTo(1);
    step(e);
    assertThat(e.batch.decodeSeqs()).isEqualTo(3);
    assertThat(e.batch.prefillTokens()).isZero();
  }

  @Test
  void aPromptLongerThanTheBudgetIsPrefilledInChunksAndItsFirstTokenComesAfterTheLast() {
    StepEngine e = engine(config());
    Sequence s = submit(e, prompt(1, 150), 3);
    List<Integer> chunks = new ArrayList<>();
    while (s.generated == 0) {
      step(e);
      chunks.add(e.batch.prefillTokens());
    }
    assertThat(chunks).containsExactly(64, 64, 22);
  }

  @Test
  void noMoreThanMaxNumSeqsRunAndTheRestWaitInArrivalOrder() {
    StepEngine e = engine(config().maxNumSeqs(2));
    Sequence a = submit(e, prompt(100, 8), 2);
    Sequence b = submit(e, prompt(200, 8), 2);
    Sequence c = submit(e, prompt(300, 8), 2);
    step(e);
    assertThat(e.batch.sequences()).isEqualTo(2);
    assertThat(c.everAdmitted).isFalse();
    step(e); // a and b finish
    assertThat(recorders.get(0).finish).isEqualTo("length");
    assertThat(recorders.get(1).finish).isEqualTo("length");
    step(e);
    assertThat(c.generated).isEqualTo(1);
    assertThat(a.done && b.done).isTrue();
  }

  @Test
  void aCachedPrefixIsReusedInWholeBlocksAndAtLeastOneTokenIsComputed() {
    StepEngine e = engine(config());
    int[] first = prompt(500, 64);
    Sequence a = submit(e, first, 1);
    step(e);
    assertThat(a.done).isTrue();
    int[] shared = prompt(500, 70);
    for (int i = 50; i < 70; i++) {
      shared[i] = 9000 + i; // diverges inside the fourth block
    }
    Sequence b = submit(e, shared, 1);
    step(e);
    assertThat(b.cachedTokens).isEqualTo(48);
    assertThat(e.batch.prefillTokens()).isEqualTo(22);
    Sequence again = submit(e, first, 1);
    step(e);
    assertThat(again.cachedTokens).isEqualTo(48); // 64 would leave nothing to compute: vLLM recomputes the last block
    assertThat(e.batch.prefillTokens()).isEqualTo(16);
  }

  @Test
  void runningOutOfBlocksPreemptsTheLastAdmittedWhichRecomputesAndFinishes() {
    StepEngine e = engine(config().kvCacheSize(6).maxNumBatchedTokens(128));
    Sequence a = submit(e, prompt(10, 40), 30);
    Sequence b = submit(e, prompt(20, 40), 30);
    step(e);
    assertThat(e.batch.prefillTokens()).isEqualTo(80);
    int preemptedAt = -1;
    for (int i = 0; i < 200 && !(a.done && b.done); i++) {
      step(e);
      if (preemptedAt < 0 && !e.running.contains(b) && !b.done) {
        preemptedAt = i;
        assertThat(e.waiting.peekFirst()).isSameAs(b);
        assertThat(b.computed).isZero();
      }
    }
    assertThat(preemptedAt).isGreaterThanOrEqualTo(0);
    assertThat(a.done && b.done).isTrue();
    assertThat(recorders.get(0).tokens).isEqualTo(30);
    assertThat(recorders.get(1).tokens).isEqualTo(30);
    assertThat(e.metrics.scrape()).containsPattern("vllm:num_preemptions_total\\{model_name=\"m\"} [1-9]");
    assertThat(e.kv.usage()).isZero();
  }

  @Test
  void stepPricesFollowWhatTheStepHolds() {
    StepEngine e = engine(config().maxNumBatchedTokens(8192).maxNumSeqs(64).kvCacheSize(4096));
    List<Sequence> shortOnes = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      shortOnes.add(submit(e, prompt(10_000 * (i + 1), 100), 50));
    }
    long prefill = step(e);
    long shortDecode = step(e);
    assertThat(e.batch.decodeSeqs()).isEqualTo(16);
    StepEngine longer = engine(config().maxNumBatchedTokens(8192).maxNumSeqs(64).kvCacheSize(4096));
    for (int i = 0; i < 16; i++) {
      submit(longer, prompt(10_000 * (i + 1), 2000), 50);
    }
    long longPrefill = 0;
    while (longer.running.isEmpty() || longer.batch.prefillTokens() > 0 || longPrefill == 0) {
      longPrefill += step(longer);
    }
    long longDecode = step(longer);
    assertThat(longer.batch.decodeSeqs()).isEqualTo(16);
    // 16 x 2,000 prompt tokens cost ~20x 16 x 100; a decode step over 2,000-token contexts costs more than 100-token.
    assertThat(longPrefill).isGreaterThan(10 * prefill);
    assertThat(longDecode).isGreaterThan(shortDecode);
    assertThat(shortOnes).allMatch(s -> s.generated == 2);
  }
}
