package dev.modelplane.simulator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A rank's engine with llm-d-inference-sim's per-request latency formulas ({@code --latency-calculator per-token}
 * or {@code constant}): continuous batching on a single thread, driven by two kinds of events. Kept for comparisons
 * with that peer; {@link StepEngine} is the model of the hardware.
 *
 * <ul>
 *   <li><b>Admission</b> (FCFS, as soon as a request arrives or capacity frees): a waiting request starts when fewer
 *       than {@code max-num-seqs} run, its blocks fit in the KV cache (after prefix-cache reuse), a LoRA slot is free
 *       for its adapter, and the prefill token budget ({@code max-num-batched-tokens} minus one token per decoding
 *       sequence) has room; a prompt larger than the whole budget runs alone, in chunks.</li>
 *   <li><b>Prefill done</b>: after {@link LatencyModel#prefillNanos}; emits the first token. The sequence joins the
 *       decode batch at the next step.</li>
 *   <li><b>Decode step</b>: back-to-back steps of {@link LatencyModel#decodeNanos} for the whole batch, one token per
 *       sequence; {@code --prefill-interference} (0..1) adds that fraction of the compute time of prefills admitted
 *       since the last step (0: prefills run beside decode, as llm-d-inference-sim assumes; 1: they stall it, as in
 *       vLLM's mixed batches). A step that finds no free block preempts the most recently admitted sequence, which
 *       later recomputes.</li>
 * </ul>
 * Timestamps are model time; the thread sleeps until each event on the wall clock (model time × {@code --time-scale})
 * and never lets a late wake-up shift later events (it catches up instead).
 */
final class PerRequestEngine extends EngineLoop {
  private final PriorityQueue<Sequence> prefilling = new PriorityQueue<>(
      Comparator.comparingLong((Sequence s) -> s.prefillEnd).thenComparingLong(s -> s.order));
  private final List<Sequence> decoding = new ArrayList<>();
  private List<Sequence> stepMembers = new ArrayList<>();
  private long stepEnd = -1;
  private long lastStepEnd = -1;
  /** True while decode steps follow each other without a gap, so the next starts where the last ended. */
  private boolean continuous;
  private int prefillTokensInFlight;
  private long pendingInterference;
  private long admissions;
  private final double interference;
  private final LatencyModel latency;

  PerRequestEngine(SimulatorConfig config, EngineMetrics metrics, ModelClock clock, long seed) {
    super(config, metrics, clock);
    this.latency = new LatencyModel(config, seed);
    this.interference = config.prefillInterference();
  }

  @Override
  public void run() {
    while (!stopped) {
      drainInbox();
      long now = clock.now();
      admit(now);
      if (stepEnd < 0 && !decoding.isEmpty()) {
        // Steps run back to back; after an idle gap the next one starts now.
        startDecodeStep(continuous ? lastStepEnd : now);
      }
      publish();
      long next = Long.MAX_VALUE;
      if (stepEnd >= 0) {
        next = stepEnd;
      }
      if (!prefilling.isEmpty()) {
        next = Math.min(next, prefilling.peek().prefillEnd);
      }
      if (next == Long.MAX_VALUE) {
        idle();
        continue;
      }
      if (clock.now() < next) {
        // Wakes early on an arrival or cancel; the loop then admits and sleeps again.
        clock.sleepUntil(next, this::handOverPending);
        if (clock.now() < next) {
          continue;
        }
      }
      while (!prefilling.isEmpty() && prefilling.peek().prefillEnd <= next) {
        finishPrefill(prefilling.poll());
      }
      if (stepEnd >= 0 && stepEnd <= next) {
        finishDecodeStep();
      }
    }
  }

  // ---- admission --------------------------------------------------------------------------------------

  @Override
  void aborted(Sequence s) {
    if (prefilling.remove(s)) {
      prefillTokensInFlight -= s.budgetHeld;
    }
    decoding.remove(s);
  }

  private void admit(long now) {
    Iterator<Sequence> it = waiting.iterator();
    while (it.hasNext() && running.size() < maxNumSeqs) {
      Sequence s = it.next();
      if (!lora.admits(s.adapter)) {
        continue;
      }
      int target = s.promptLen + s.generated;
      long[] hashes = kv.prefixHashes(s, target);
      int matched = Math.min(kv.matchedBlocks(hashes), (target - 1) / kv.blockSize());
      int uncached = target - matched * kv.blockSize();
      int prefillBudget = Math.max(1, budget - decoding.size());
      int hold = Math.min(uncached, prefillBudget);
      if (prefillTokensInFlight > 0 && prefillTokensInFlight + hold > prefillBudget) {
        break;
      }
      int[] table = kv.allocate(hashes, matched, target);
      if (table == null) {
        break;
      }
      it.remove();
      waitingCount.decrementAndGet();
      admitted(s, table, matched, now);
      s.target = target;
      s.order = admissions++;
      long swap = 0;
      if (s.adapter != null) {
        swap = lora.acquire(s.adapter) ? latency.loraLoadNanos() : 0;
      }
      running.add(s);
      s.budgetHeld = hold;
      prefillTokensInFlight += hold;
      s.prefillEnd = now + latency.prefillNanos(running.size(), uncached) + swap;
      pendingInterference += latency.prefillComputeNanos(running.size(), uncached) + swap;
      prefilling.add(s);
    }
  }

  // ---- prefill and decode -------------------------------------------------------------------------------

  private void finishPrefill(Sequence s) {
    prefillTokensInFlight -= s.budgetHeld;
    s.budgetHeld = 0;
    s.computed = s.target;
    kv.commitFullBlocks(s, s.computed);
    emit(s, s.prefillEnd);
    if (!s.done) {
      decoding.add(s);
    }
  }

  private void startDecodeStep(long start) {
    List<Sequence> members = new ArrayList<>(decoding.size());
    for (int i = 0; i < decoding.size(); i++) {
      Sequence s = decoding.get(i);
      // This step writes KV for token index promptLen + generated - 1.
      int needBlocks = (s.promptLen + s.generated + kv.blockSize() - 1) / kv.blockSize();
      boolean ok = true;
      while (s.blockCount < needBlocks) {
        int id = kv.grow();
        if (id >= 0) {
          s.appendBlock(id);
          continue;
        }
        Sequence victim = running.get(running.size() - 1);
        int at = decoding.indexOf(victim);
        preempt(victim);
        if (victim == s) {
          ok = false;
          break;
        }
        if (at >= 0 && at < i) {
          // A sequence already placed in this step was preempted.
          members.remove(victim);
          i--;
        }
      }
      if (!ok) {
        break;
      }
      members.add(s);
    }
    if (members.isEmpty()) {
      continuous = false;
      return;
    }
    stepMembers = members;
    long duration = latency.decodeNanos(running.size()) + Math.round(interference * pendingInterference);
    pendingInterference = 0;
    stepEnd = start + duration;
  }

  private void finishDecodeStep() {
    long end = stepEnd;
    stepEnd = -1;
    lastStepEnd = end;
    for (Sequence s : stepMembers) {
      if (s.done || !s.decodingNow) {
        continue;
      }
      kv.commitFullBlocks(s, s.promptLen + s.generated);
      emit(s, end);
    }
    decoding.removeIf(s -> s.done);
    running.removeIf(s -> s.done);
    continuous = !decoding.isEmpty();
  }

  private void preempt(Sequence s) {
    running.remove(s);
    if (prefilling.remove(s)) {
      prefillTokensInFlight -= s.budgetHeld;
      s.budgetHeld = 0;
    }
    decoding.remove(s);
    s.decodingNow = false;
    release(s);
    s.computed = 0;
    waiting.addFirst(s);
    waitingCount.incrementAndGet();
    metrics.preemptions.add(1, metrics.model);
  }
}
