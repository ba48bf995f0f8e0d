package dev.modelplane.simulator;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * One rank's engine: vLLM-style continuous batching on a single thread, driven by two kinds of events.
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
final class Engine implements Runnable {
  private final SimulatorConfig config;
  private final int maxNumSeqs;
  private final int budget;
  private final KvCache kv;
  private final LatencyModel latency;
  private final EngineMetrics metrics;
  private final ModelClock clock;
  private final ConcurrentLinkedQueue<Sequence> inbox = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<Sequence> cancels = new ConcurrentLinkedQueue<>();
  private final AtomicInteger waitingCount = new AtomicInteger();
  private final ArrayDeque<Sequence> waiting = new ArrayDeque<>();
  /** Admitted sequences (prefilling or decoding), in admission order. */
  private final List<Sequence> running = new ArrayList<>();
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
  private final LoraSlots lora;
  private volatile int runningCount;
  private volatile double kvUsage;
  private volatile boolean stopped;
  private volatile Thread thread;

  Engine(SimulatorConfig config, EngineMetrics metrics, ModelClock clock, long seed) {
    this.config = config;
    this.maxNumSeqs = config.maxNumSeqs();
    this.budget = config.maxNumBatchedTokens();
    this.kv = new KvCache(config.kvCacheSize(), config.blockSize(), config.enableKvcache(), config.hashSeed());
    this.latency = new LatencyModel(config, seed);
    this.metrics = metrics;
    this.clock = clock;
    this.lora = new LoraSlots(config.maxLoras());
    this.interference = config.prefillInterference();
    lora.publish(metrics, waiting);
  }

  /** Starts the engine thread. */
  void start(String name) {
    Thread t = new Thread(this, name);
    t.setDaemon(true);
    thread = t;
    t.start();
  }

  void stop() {
    stopped = true;
    Thread t = thread;
    if (t != null) {
      LockSupport.unpark(t);
    }
  }

  /** Blocks a single sequence may use at most: its whole context. */
  int maxBlocks() {
    return kv.numBlocks();
  }

  int blockSize() {
    return kv.blockSize();
  }

  /**
   * Queues a sequence. Returns null, or a 429 error when the waiting queue is full. Requests count as waiting from
   * here until the engine admits them, as in vLLM's scheduler.
   */
  ApiError submit(Sequence seq) {
    int freeSlots = Math.max(0, maxNumSeqs - runningCount);
    int limit = config.maxWaitingQueueLength() + freeSlots;
    while (true) {
      int w = waitingCount.get();
      if (w >= limit) {
        return new ApiError(429, "Failed to enqueue request, the waiting queue is full ("
            + config.maxWaitingQueueLength() + " requests)", null);
      }
      if (waitingCount.compareAndSet(w, w + 1)) {
        break;
      }
    }
    seq.arrivalNanos = clock.now();
    inbox.add(seq);
    LockSupport.unpark(thread);
    return null;
  }

  /** Aborts a sequence (client went away); safe from any thread. */
  void cancel(Sequence seq) {
    seq.cancelled = true;
    cancels.add(seq);
    LockSupport.unpark(thread);
  }

  /** Refreshes the gauges from the engine's last published state; called before a scrape. */
  void refreshGauges() {
    String m = metrics.model;
    metrics.running.set(runningCount, m);
    metrics.waiting.set(waitingCount.get(), m);
    metrics.kvUsage.set(kvUsage, m);
    metrics.gpuCacheUsage.set(kvUsage, m);
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
        LockSupport.park(this);
        continue;
      }
      if (clock.now() < next) {
        // Wakes early on an arrival or cancel; the loop then admits and sleeps again.
        clock.sleepUntil(next, () -> stopped || !inbox.isEmpty() || !cancels.isEmpty());
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

  private void drainInbox() {
    for (Sequence s; (s = inbox.poll()) != null; ) {
      waiting.add(s);
    }
    for (Sequence s; (s = cancels.poll()) != null; ) {
      if (s.done) {
        continue;
      }
      if (waiting.remove(s)) {
        waitingCount.decrementAndGet();
      } else if (running.remove(s)) {
        if (prefilling.remove(s)) {
          prefillTokensInFlight -= s.budgetHeld;
        }
        decoding.remove(s);
        release(s);
      } else {
        continue;
      }
      finish(s, "abort", clock.now());
    }
  }

  private void admit(long now) {
    Iterator<Sequence> it = waiting.iterator();
    while (it.hasNext() && running.size() < maxNumSeqs) {
      Sequence s = it.next();
      if (!lora.admits(s.adapter)) {
        continue;
      }
      int target = s.promptLen + s.generated;
      long[] hashes = kv.prefixHashes(s.tokens, target, s.adapter);
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
      s.blockTable = table;
      s.blockCount = table.length;
      s.blockHashes = new long[Math.max(table.length, 4)];
      System.arraycopy(hashes, 0, s.blockHashes, 0, hashes.length);
      s.committedBlocks = matched;
      s.target = target;
      s.cachedTokens = matched * kv.blockSize();
      s.computed = s.cachedTokens;
      s.order = admissions++;
      if (!s.everAdmitted) {
        s.everAdmitted = true;
        s.admitNanos = now;
        metrics.firstAdmitted(target, s.cachedTokens, seconds(now - s.arrivalNanos));
      }
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

  private void release(Sequence s) {
    kv.release(s.blockTable, s.blockCount);
    s.blockCount = 0;
    if (s.adapter != null) {
      lora.release(s.adapter);
    }
  }

  private void emit(Sequence s, long scheduled) {
    long actual = clock.now();
    long now = Math.max(scheduled, actual);
    metrics.engineLag.observe(seconds(Math.max(0, actual - scheduled)), metrics.model);
    int index = s.generated++;
    s.decodingNow = true;
    if (s.firstTokenNanos < 0) {
      s.firstTokenNanos = now;
      metrics.firstToken(seconds(now - s.arrivalNanos), s.promptLen);
    } else {
      metrics.nextToken(seconds(now - s.lastTokenNanos));
    }
    s.lastTokenNanos = now;
    s.listener.onToken(s, index);
    if (s.generated >= s.outputLen()) {
      release(s);
      running.remove(s);
      finish(s, s.finishReason, now);
    }
  }

  private void finish(Sequence s, String reason, long now) {
    s.done = true;
    metrics.finished(s, reason, now);
    s.listener.onFinish(s, reason);
  }

  // ---- gauges -----------------------------------------------------------------------------------------

  private void publish() {
    runningCount = running.size();
    kvUsage = kv.usage();
    lora.publish(metrics, waiting);
  }

  static double seconds(long nanos) {
    return nanos / 1e9;
  }
}
