package dev.modelplane.simulator;

import dev.modelplane.simulator.physics.StepBatch;
import dev.modelplane.simulator.physics.StepCostModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * A rank's engine as vLLM v1's scheduler runs it: back-to-back engine steps, each priced by {@link StepCostModel}
 * from what it holds. Scheduling one step:
 *
 * <ol>
 *   <li>Running sequences first, in admission order, each taking what it still needs from the step's token budget
 *       ({@code --max-num-batched-tokens}): one token for a decoding sequence, the rest of its prompt (a chunk, if
 *       the budget is smaller) for one still prefilling. A sequence whose new tokens need a KV block that is not
 *       free preempts the last admitted sequence (recompute: it goes back to the head of the queue, its blocks
 *       freed) until the block fits, or is itself preempted.</li>
 *   <li>Then, unless this step preempted, waiting sequences in arrival order while budget, a sequence slot
 *       ({@code --max-num-seqs}) and KV blocks last: a prompt's longest cached prefix (whole blocks, at most the
 *       prompt minus one token) is reused and only the rest is computed, chunked to the budget left. A request whose
 *       LoRA adapter cannot join the batch is skipped, the ones behind it may start.</li>
 * </ol>
 * At the end of the step every sequence whose tokens are all computed emits one token: the first token ends a
 * prefill, the next ones are decodes. TTFT, inter-token latency, queueing, the {@code vllm:*} histograms and the KV
 * gauges all follow from these steps. Arrivals during a step wait for the next one.
 */
final class StepEngine extends EngineLoop {
  final StepCostModel cost;
  final StepBatch batch = new StepBatch();
  private final long loraLoadNanos;
  private final List<Sequence> scheduled = new ArrayList<>();
  private int[] newTokens = new int[64];
  private long lastStepEnd;
  /** True while steps follow each other without a gap, so the next starts where the last ended. */
  private boolean continuous;
  private long admissions;

  StepEngine(SimulatorConfig config, EngineMetrics metrics, ModelClock clock) {
    super(config, metrics, clock);
    this.cost = config.costModel();
    this.loraLoadNanos = config.loraLoadTime().toNanos();
  }

  @Override
  public void run() {
    while (!stopped) {
      drainInbox();
      // Back to back while there is work: a step starts when the last ended, even if this thread woke late.
      long start = continuous ? lastStepEnd : clock.now();
      long end = beginStep(start);
      if (end < 0) {
        if (continuous) {
          continuous = false;
        } else {
          idle();
        }
        continue;
      }
      clock.sleepUntil(end, () -> stopped);
      drainInbox();
      endStep(end);
      continuous = true;
    }
  }

  /**
   * Schedules the step that starts at model time {@code start} and publishes the gauges; returns when it ends, or -1
   * when there is nothing to run. The engine thread and {@link VirtualServer} both drive steps through this and
   * {@link #endStep}, so a virtual run takes the same steps as a live one.
   */
  long beginStep(long start) {
    long swap = schedule(start);
    publish();
    if (batch.isEmpty()) {
      return -1;
    }
    long end = start + Math.round(cost.stepNanos(batch)) + swap;
    if (stepLog != null) {
      stepLog.step(start, end, scheduled, newTokens);
    }
    return end;
  }

  /** Ends the step begun last, at model time {@code end}: its sequences advance and emit their tokens. */
  void endStep(long end) {
    finishStep(end);
    lastStepEnd = end;
  }

  /** Sees every step as it is scheduled (tests comparing a live engine with a virtual one). */
  interface StepLog {
    /** A step from {@code start} to {@code end} runs {@code newTokens[i]} tokens of {@code scheduled.get(i)}. */
    void step(long start, long end, List<Sequence> scheduled, int[] newTokens);
  }

  /** Where steps are reported; null for nowhere (the default). Set before the engine starts. */
  StepLog stepLog;

  /** Fills {@link #batch} and {@link #scheduled} for a step starting at {@code start}; returns adapter swap time. */
  long schedule(long start) {
    batch.clear();
    scheduled.clear();
    int left = budget;
    boolean preempted = false;
    for (int i = 0; i < running.size() && left > 0; i++) {
      Sequence s = running.get(i);
      int n = Math.min(s.promptLen + s.generated - s.computed, left);
      int needBlocks = (s.computed + n + kv.blockSize() - 1) / kv.blockSize();
      boolean fits = true;
      while (s.blockCount < needBlocks) {
        int id = kv.grow();
        if (id >= 0) {
          s.appendBlock(id);
          continue;
        }
        // Only sequences after this one can be preempted, so none already in the step.
        Sequence victim = running.get(running.size() - 1);
        preempt(victim);
        preempted = true;
        if (victim == s) {
          fits = false;
          break;
        }
      }
      if (!fits) {
        break;
      }
      add(s, n);
      left -= n;
    }
    long swap = 0;
    if (preempted) {
      return swap;
    }
    Iterator<Sequence> it = waiting.iterator();
    while (it.hasNext() && left > 0 && running.size() < maxNumSeqs) {
      Sequence s = it.next();
      if (s.arrivalNanos > start) {
        break;
      }
      if (!lora.admits(s.adapter)) {
        continue;
      }
      int total = s.promptLen + s.generated;
      long[] hashes = kv.prefixHashes(s, total);
      int matched = Math.min(kv.matchedBlocks(hashes), (total - 1) / kv.blockSize());
      int computed = matched * kv.blockSize();
      int n = Math.min(total - computed, left);
      int[] table = kv.allocate(hashes, matched, computed + n);
      if (table == null) {
        break;
      }
      it.remove();
      waitingCount.decrementAndGet();
      admitted(s, table, matched, start);
      s.order = admissions++;
      if (s.adapter != null && lora.acquire(s.adapter)) {
        swap += loraLoadNanos;
      }
      running.add(s);
      add(s, n);
      left -= n;
    }
    return swap;
  }

  private void add(Sequence s, int n) {
    if (scheduled.size() == newTokens.length) {
      newTokens = Arrays.copyOf(newTokens, newTokens.length * 2);
    }
    newTokens[scheduled.size()] = n;
    scheduled.add(s);
    if (s.computed >= s.promptLen && n == 1 && s.generated > 0) {
      batch.decode(s.computed + 1L);
    } else {
      batch.prefill(n, s.computed);
    }
  }

  void finishStep(long end) {
    for (int j = 0; j < scheduled.size(); j++) {
      Sequence s = scheduled.get(j);
      if (s.done) {
        continue;
      }
      s.computed += newTokens[j];
      kv.commitFullBlocks(s, s.computed);
      if (s.computed >= s.promptLen + s.generated) {
        emit(s, end);
      }
    }
    scheduled.clear();
  }

  private void preempt(Sequence s) {
    running.remove(s);
    release(s);
    s.computed = 0;
    s.decodingNow = false;
    waiting.addFirst(s);
    waitingCount.incrementAndGet();
    metrics.preemptions.add(1, metrics.model);
  }

  @Override
  void aborted(Sequence s) {
    // A sequence in the step in flight is skipped when the step ends (it is done).
  }
}
