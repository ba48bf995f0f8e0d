package dev.modelplane.simulator;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * One rank's engine: vLLM-style continuous batching on a single thread. Each step decodes one token for every
 * running sequence and spends the rest of the {@code max-num-batched-tokens} budget on prefill chunks, first of
 * sequences already running, then of waiting ones it admits (FCFS, up to {@code max-num-seqs}, while KV blocks and
 * LoRA slots allow). A decode that finds no free block preempts the most recently admitted sequence, which later
 * recomputes. The step's duration comes from {@link LatencyModel}; the thread sleeps until the step's end on the
 * wall clock (model time × {@code --time-scale}) and then hands the tokens out.
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
  private final List<Sequence> running = new ArrayList<>();
  private final Map<String, Integer> activeAdapters = new HashMap<>();
  private final LinkedHashSet<String> residentAdapters = new LinkedHashSet<>();
  private final int maxLoras;
  private volatile int runningCount;
  private volatile double kvUsage;
  private volatile boolean stopped;
  private volatile Thread thread;
  private String loraState = "";

  Engine(SimulatorConfig config, EngineMetrics metrics, ModelClock clock, long seed) {
    this.config = config;
    this.maxNumSeqs = config.maxNumSeqs();
    this.budget = config.maxNumBatchedTokens();
    this.kv = new KvCache(config.kvCacheSize(), config.blockSize(), config.enableKvcache(), config.hashSeed());
    this.latency = new LatencyModel(config, seed);
    this.metrics = metrics;
    this.clock = clock;
    this.maxLoras = config.maxLoras();
    publishLora();
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
    long stepStart = clock.now();
    while (!stopped) {
      drainInbox();
      if (running.isEmpty() && waiting.isEmpty()) {
        publish();
        LockSupport.park(this);
        stepStart = clock.now();
        continue;
      }
      Step step = schedule(stepStart);
      publish();
      if (step.isEmpty()) {
        // Nothing can run (e.g. the head of the queue waits for an adapter slot): wait for a change.
        LockSupport.parkNanos(this, 1_000_000);
        stepStart = clock.now();
        continue;
      }
      long end = stepStart + latency.stepNanos(running.size(), step.decodes.size(), step.prefill,
          step.adaptersLoaded);
      clock.sleepUntil(end, () -> stopped);
      long emitted = Math.max(end, clock.now());
      complete(step, emitted);
      stepStart = emitted;
    }
  }

  // ---- scheduling -----------------------------------------------------------------------------------

  /** What one step does. */
  private static final class Step {
    final List<Sequence> decodes = new ArrayList<>();
    final List<Sequence> prefills = new ArrayList<>();
    final List<Integer> chunks = new ArrayList<>();
    final LatencyModel.PrefillWork prefill = new LatencyModel.PrefillWork();
    int adaptersLoaded;

    boolean isEmpty() {
      return decodes.isEmpty() && prefills.isEmpty();
    }
  }

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
        release(s);
      } else {
        continue;
      }
      finish(s, "abort", clock.now());
    }
  }

  private Step schedule(long now) {
    Step step = new Step();
    int left = budget;
    boolean preempted = false;
    for (int i = 0; i < running.size() && left > 0; i++) {
      Sequence s = running.get(i);
      if (s.prefilling()) {
        int chunk = Math.min(s.target - s.computed, left);
        step.prefills.add(s);
        step.chunks.add(chunk);
        step.prefill.add(chunk, s.uncachedAtAdmission);
        left -= chunk;
        continue;
      }
      // A decode step writes KV for token index promptLen + generated - 1.
      int needBlocks = (s.promptLen + s.generated + kv.blockSize() - 1) / kv.blockSize();
      boolean ok = true;
      while (s.blockCount < needBlocks) {
        int id = kv.grow();
        if (id >= 0) {
          appendBlock(s, id);
          continue;
        }
        Sequence victim = running.get(running.size() - 1);
        preempt(victim);
        preempted = true;
        if (victim == s) {
          ok = false;
          break;
        }
      }
      if (!ok) {
        break;
      }
      step.decodes.add(s);
      left -= 1;
    }
    // Admit waiting sequences (not in a step that had to preempt, as vLLM does).
    Iterator<Sequence> it = waiting.iterator();
    while (!preempted && it.hasNext() && left > 0 && running.size() < maxNumSeqs) {
      Sequence s = it.next();
      if (s.adapter != null && !activeAdapters.containsKey(s.adapter) && activeAdapters.size() >= maxLoras) {
        continue;
      }
      int target = s.promptLen + s.generated;
      long[] hashes = kv.prefixHashes(s.tokens, target, s.adapter);
      int matched = Math.min(kv.matchedBlocks(hashes), (target - 1) / kv.blockSize());
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
      s.uncachedAtAdmission = target - s.computed;
      if (!s.everAdmitted) {
        s.everAdmitted = true;
        s.admitNanos = now;
        metrics.prefixQueries.inc(target, metrics.model);
        metrics.prefixHits.inc(s.cachedTokens, metrics.model);
        metrics.queueTime.observe(seconds(now - s.arrivalNanos), metrics.model);
      }
      if (s.adapter != null) {
        activeAdapters.merge(s.adapter, 1, Integer::sum);
        if (!residentAdapters.remove(s.adapter)) {
          step.adaptersLoaded++;
          while (residentAdapters.size() >= maxLoras) {
            String evict = null;
            for (String r : residentAdapters) {
              if (!activeAdapters.containsKey(r)) {
                evict = r;
                break;
              }
            }
            if (evict == null) {
              break;
            }
            residentAdapters.remove(evict);
          }
        }
        residentAdapters.add(s.adapter);
      }
      running.add(s);
      int chunk = Math.min(s.target - s.computed, left);
      step.prefills.add(s);
      step.chunks.add(chunk);
      step.prefill.add(chunk, s.uncachedAtAdmission);
      left -= chunk;
    }
    return step;
  }

  private void preempt(Sequence s) {
    running.remove(s);
    release(s);
    s.computed = 0;
    waiting.addFirst(s);
    waitingCount.incrementAndGet();
    metrics.preemptions.inc(1, metrics.model);
  }

  private void release(Sequence s) {
    kv.release(s.blockTable, s.blockCount);
    s.blockCount = 0;
    if (s.adapter != null) {
      activeAdapters.computeIfPresent(s.adapter, (k, v) -> v == 1 ? null : v - 1);
    }
  }

  private void appendBlock(Sequence s, int id) {
    if (s.blockCount == s.blockTable.length) {
      s.blockTable = java.util.Arrays.copyOf(s.blockTable, Math.max(4, s.blockCount * 2));
    }
    s.blockTable[s.blockCount++] = id;
  }

  // ---- completing a step ------------------------------------------------------------------------------

  private void complete(Step step, long now) {
    for (int i = 0; i < step.prefills.size(); i++) {
      Sequence s = step.prefills.get(i);
      if (s.done) {
        continue;
      }
      s.computed += step.chunks.get(i);
      commitFullBlocks(s, s.computed);
      if (!s.prefilling()) {
        emit(s, now);
      }
    }
    for (Sequence s : step.decodes) {
      if (s.done) {
        continue;
      }
      commitFullBlocks(s, s.promptLen + s.generated);
      emit(s, now);
    }
    running.removeIf(s -> s.done);
  }

  private void emit(Sequence s, long now) {
    int index = s.generated++;
    String m = metrics.model;
    metrics.generationTokens.inc(1, m);
    if (s.firstTokenNanos < 0) {
      s.firstTokenNanos = now;
      metrics.ttft.observe(seconds(now - s.arrivalNanos), m);
      metrics.promptTokens.inc(s.promptLen, m);
    } else {
      double itl = seconds(now - s.lastTokenNanos);
      metrics.itl.observe(itl, m);
      metrics.tpot.observe(itl, m);
    }
    s.lastTokenNanos = now;
    s.listener.onToken(s, index);
    if (s.generated >= s.outputLen()) {
      release(s);
      finish(s, s.finishReason, now);
    }
  }

  private void finish(Sequence s, String reason, long now) {
    s.done = true;
    String m = metrics.model;
    metrics.success.inc(1, m, reason);
    if (!"abort".equals(reason)) {
      metrics.e2e.observe(seconds(now - s.arrivalNanos), m);
      metrics.inferenceTime.observe(seconds(now - s.admitNanos), m);
      metrics.prefillTime.observe(seconds(s.firstTokenNanos - s.admitNanos), m);
      metrics.decodeTime.observe(seconds(now - s.firstTokenNanos), m);
      if (s.generated > 1) {
        metrics.requestTpot.observe(seconds(now - s.firstTokenNanos) / (s.generated - 1), m);
      }
      metrics.requestPromptTokens.observe(s.promptLen, m);
      metrics.requestGenerationTokens.observe(s.generated, m);
      metrics.requestMaxTokens.observe(s.maxTokensParam, m);
    }
    s.listener.onFinish(s, reason);
  }

  /** Registers the hashes of blocks that became full, so later prompts can reuse them. */
  private void commitFullBlocks(Sequence s, int kvTokens) {
    int full = Math.min(kvTokens / kv.blockSize(), s.blockCount);
    while (s.committedBlocks < full) {
      int b = s.committedBlocks;
      if (b >= s.blockHashes.length) {
        s.blockHashes = java.util.Arrays.copyOf(s.blockHashes, s.blockHashes.length * 2);
      }
      if (s.blockHashes[b] == 0) {
        long parent = b == 0 ? 0 : s.blockHashes[b - 1];
        s.blockHashes[b] = kv.blockHash(parent, s.tokens, b * kv.blockSize(), s.adapter);
      }
      kv.commit(s.blockTable[b], s.blockHashes[b]);
      s.committedBlocks++;
    }
  }

  // ---- gauges -----------------------------------------------------------------------------------------

  private void publish() {
    runningCount = running.size();
    kvUsage = kv.usage();
    publishLora();
  }

  private void publishLora() {
    TreeSet<String> run = new TreeSet<>(activeAdapters.keySet());
    TreeSet<String> wait = new TreeSet<>();
    for (Sequence s : waiting) {
      if (s.adapter != null) {
        wait.add(s.adapter);
      }
    }
    String state = String.join(",", run) + "|" + String.join(",", wait);
    if (!state.equals(loraState)) {
      loraState = state;
      metrics.loraInfo.replace(System.currentTimeMillis() / 1000.0, String.valueOf(maxLoras), String.join(",", run),
          String.join(",", wait));
    }
  }

  static double seconds(long nanos) {
    return nanos / 1e9;
  }
}
