package dev.modelplane.simulator;

import dev.modelplane.common.kvevents.KvEvent;
import dev.modelplane.common.kvevents.KvEventPublisher;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * What every engine of a rank shares: one thread that owns the KV cache, the waiting queue and the running batch;
 * arrivals and cancels handed over from the HTTP threads; the gauges scrapes read; and how a token or a finished
 * sequence is reported. Subclasses decide when work runs and what it costs: {@link StepEngine} (engine steps priced
 * by the hardware) and {@link PerRequestEngine} (llm-d-inference-sim's per-request formulas).
 */
abstract class EngineLoop implements Runnable {
  final SimulatorConfig config;
  final int maxNumSeqs;
  final int budget;
  final KvCache kv;
  final EngineMetrics metrics;
  final ModelClock clock;
  final LoraSlots lora;
  private final ConcurrentLinkedQueue<Sequence> inbox = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<Sequence> cancels = new ConcurrentLinkedQueue<>();
  final AtomicInteger waitingCount = new AtomicInteger();
  final ArrayDeque<Sequence> waiting = new ArrayDeque<>();
  /** Admitted sequences, in admission order. */
  final List<Sequence> running = new ArrayList<>();
  private volatile int runningCount;
  private volatile double kvUsage;
  volatile boolean stopped;
  private volatile Thread thread;
  /** Where the KV cache's events go after each scheduling; null when nobody listens. */
  private java.util.function.Consumer<List<KvEvent>> kvEvents;
  /** Records each finished request's spans; off unless tracing is on. */
  volatile SequenceSpans spans = SequenceSpans.OFF;

  EngineLoop(SimulatorConfig config, EngineMetrics metrics, ModelClock clock) {
    this.config = config;
    this.maxNumSeqs = config.maxNumSeqs();
    this.budget = config.maxNumBatchedTokens();
    this.kv = new KvCache(config.kvCacheSize(), config.blockSize(), config.enableKvcache(), config.hashSeed(),
        config.kvEvents().publishes(), config.fastBlockHashes);
    this.metrics = metrics;
    this.clock = clock;
    this.lora = new LoraSlots(config.maxLoras());
    lora.publish(metrics, waiting);
  }

  /** The engine {@code config} asks for: engine steps priced by the hardware, or the per-request calculators. */
  static EngineLoop create(SimulatorConfig config, EngineMetrics metrics, ModelClock clock, long seed) {
    return config.stepModel() ? new StepEngine(config, metrics, clock)
        : new PerRequestEngine(config, metrics, clock, seed);
  }

  /** Starts the engine thread, publishing the KV cache's events to {@code kvEvents} (null for none). */
  void start(String name, KvEventPublisher kvEvents) {
    this.kvEvents = kvEvents == null ? null : kvEvents::publish;
    Thread t = new Thread(this, name);
    t.setDaemon(true);
    thread = t;
    t.start();
  }

  /** Hands the KV cache's events to {@code sink} (a virtual run, which has no sockets); set before any step. */
  void kvEvents(java.util.function.Consumer<List<KvEvent>> sink) {
    this.kvEvents = sink;
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

  /** Whether arrivals or cancels wait to be taken in (or the engine is stopping): a reason to stop sleeping. */
  boolean handOverPending() {
    return stopped || !inbox.isEmpty() || !cancels.isEmpty();
  }

  /** Running sequences as of the last {@link #publish()} (what a scrape reads). */
  int publishedRunning() {
    return runningCount;
  }

  /** KV-cache usage as of the last {@link #publish()} (what a scrape reads). */
  double publishedKvUsage() {
    return kvUsage;
  }

  /** Refreshes the gauges from the engine's last published state; called before a scrape. */
  void refreshGauges() {
    String m = metrics.model;
    metrics.running.set(runningCount, m);
    metrics.waiting.set(waitingCount.get(), m);
    metrics.kvUsage.set(kvUsage, m);
    metrics.gpuCacheUsage.set(kvUsage, m);
  }

  /** Moves arrivals into the waiting queue and aborts cancelled sequences wherever they are. */
  final void drainInbox() {
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
        aborted(s);
        release(s);
      } else {
        continue;
      }
      finish(s, "abort", clock.now());
    }
  }

  /** A running sequence was aborted: drop it from the subclass's own bookkeeping (its blocks are released after). */
  abstract void aborted(Sequence s);

  /** Parks the thread until an arrival, a cancel or a stop. */
  final void idle() {
    LockSupport.park(this);
  }

  final void release(Sequence s) {
    kv.release(s.blockTable, s.blockCount);
    s.blockCount = 0;
    if (s.adapter != null) {
      lora.release(s.adapter);
    }
  }

  /** Fills a newly admitted sequence's KV state from its block table and cached-prefix length. */
  final void admitted(Sequence s, int[] table, int matchedBlocks, long now) {
    s.blockTable = table;
    s.blockCount = table.length;
    s.committedBlocks = matchedBlocks;
    s.cachedTokens = matchedBlocks * kv.blockSize();
    s.computed = s.cachedTokens;
    if (!s.everAdmitted) {
      s.everAdmitted = true;
      s.admitNanos = now;
      metrics.firstAdmitted(s.promptLen + s.generated, s.cachedTokens, seconds(now - s.arrivalNanos));
    }
  }

  /** Emits the sequence's next token, produced at model time {@code scheduled}; finishes it after its last. */
  final void emit(Sequence s, long scheduled) {
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

  final void finish(Sequence s, String reason, long now) {
    s.done = true;
    metrics.finished(s, reason, now);
    s.listener.onFinish(s, reason);
    spans.finished(s, reason, now, clock, metrics.model);
  }

  /** Publishes the gauges' inputs for scrapes on other threads. */
  final void publish() {
    runningCount = running.size();
    kvUsage = kv.usage();
    lora.publish(metrics, waiting);
    if (kvEvents != null) {
      List<KvEvent> events = kv.takeEvents();
      if (!events.isEmpty()) {
        kvEvents.accept(events);
      }
    }
  }

  static double seconds(long nanos) {
    return nanos / 1e9;
  }
}
