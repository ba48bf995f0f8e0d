package dev.modelplane.router.flowcontrol;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Queues requests of one pool by priority band and flow (fairness id), and releases them while the pool is not
 * saturated (GIE's flow control). A dispatch cycle walks the bands from the highest priority; if saturation reaches
 * the band's usage limit (its ceiling from the {@link UsageLimitPolicy}; 1.0 for every band by default) the whole cycle
 * stops, so lower bands cannot overtake higher ones. The bands are the configured ones and every priority seen since.
 * Within a band ({@link PriorityBand}) the fairness policy picks a flow and the flow's oldest request is released
 * (FCFS). Each cycle releases one request; cycles run on enqueue (on the caller's thread when nothing was queued, so
 * a request to a pool that is not saturated passes straight through), on {@link #signal()} (metrics update, request
 * finished) and on a periodic tick while anything is queued.
 */
public final class FlowController implements AutoCloseable {
  /** Observes queue changes and outcomes (for metrics); called outside the lock. */
  public interface Observer {
    Observer NONE = new Observer() {
    };

    default void outcome(String fairnessId, int priority, FlowOutcome outcome, long queuedNanos) {
    }

    default void saturation(double saturation) {
    }
  }

  /** A queued request's handle. */
  public final class Ticket {
    final String fairnessId;
    private final int priority;
    final long bytes;
    final long enqueuedNanos;
    final long deadlineNanos;
    private final CompletableFuture<FlowOutcome> outcome = new CompletableFuture<>();
    /** In a band's queue; guarded by the controller's lock. */
    boolean queued;

    private Ticket(String fairnessId, int priority, long bytes, long enqueuedNanos, long deadlineNanos) {
      this.fairnessId = fairnessId;
      this.priority = priority;
      this.bytes = bytes;
      this.enqueuedNanos = enqueuedNanos;
      this.deadlineNanos = deadlineNanos;
    }

    public CompletableFuture<FlowOutcome> outcome() {
      return outcome;
    }

    /** The client went away: leave the queue (no effect once dispatched). */
    public void cancel() {
      finishIfQueued(this, FlowOutcome.EVICTED_CONTEXT_CANCELLED);
    }
  }

  private final FlowControlConfig config;
  private final DoubleSupplier saturation;
  private final UsageLimitPolicy usageLimits;
  private final LongSupplier nanoClock;
  private final ScheduledExecutorService executor;
  private final Observer observer;
  private final long tickNanos;
  private final ReentrantLock lock = new ReentrantLock();
  private final TreeMap<Integer, PriorityBand> bands = new TreeMap<>(Comparator.reverseOrder());
  private long totalBytes;
  private long totalRequests;
  private ScheduledFuture<?> ticker;
  private boolean closed;
  private int[] priorities = new int[0];
  private double[] ceilings = new double[0];

  public FlowController(FlowControlConfig config, DoubleSupplier saturation, UsageLimitPolicy usageLimits,
      LongSupplier nanoClock, ScheduledExecutorService executor, Observer observer, long tickNanos) {
    this.config = config;
    this.saturation = saturation;
    this.usageLimits = usageLimits == null ? UsageLimitPolicy.NONE : usageLimits;
    this.nanoClock = nanoClock;
    this.executor = executor;
    this.observer = observer == null ? Observer.NONE : observer;
    this.tickNanos = tickNanos;
    for (FlowControlConfig.BandConfig b : config.bands()) {
      bands.put(b.priority(), new PriorityBand(b));
    }
  }

  /** Queues a request. {@code ttlNanos ≤ 0} uses the default TTL ({@code 0} there means no limit). */
  public Ticket enqueue(String fairnessId, int priority, long bytes, long ttlNanos) {
    long now = nanoClock.getAsLong();
    long ttl = ttlNanos > 0 ? ttlNanos : config.defaultRequestTtl().toNanos();
    Ticket ticket = new Ticket(fairnessId, priority, bytes, now, ttl > 0 ? now + ttl : Long.MAX_VALUE);
    FlowOutcome rejected = null;
    boolean first;
    lock.lock();
    try {
      first = totalRequests == 0;
      if (closed) {
        rejected = FlowOutcome.REJECTED_OTHER;
      } else {
        PriorityBand band = bands.computeIfAbsent(priority, p -> new PriorityBand(config.bandFor(p)));
        if (exceeds(band, bytes)) {
          rejected = FlowOutcome.REJECTED_CAPACITY;
        } else {
          band.add(ticket);
          totalBytes += bytes;
          totalRequests++;
          if (!first) {
            ensureTicker();
          }
        }
      }
    } finally {
      lock.unlock();
    }
    if (rejected != null) {
      complete(ticket, rejected, now);
    } else if (first) {
      drainFirst();
    } else {
      signal();
    }
    return ticket;
  }

  /**
   * The queue was empty: nothing waits ahead of this request, so it is decided on the caller's thread without a
   * hand-off to the executor, and the periodic tick starts only if it has to wait. Without an executor (cycles driven
   * by hand) it only starts the tick.
   */
  private void drainFirst() {
    if (executor != null) {
      drain();
    }
    lock.lock();
    try {
      if (totalRequests > 0) {
        ensureTicker();
      }
    } finally {
      lock.unlock();
    }
  }

  private boolean exceeds(PriorityBand band, long bytes) {
    if (config.maxRequests() > 0 && totalRequests + 1 > config.maxRequests()) {
      return true;
    }
    if (config.maxBytes() > 0 && totalBytes + bytes > config.maxBytes()) {
      return true;
    }
    return !band.fits(bytes);
  }

  /** Asks for a dispatch cycle soon (metrics changed, a request finished). */
  public void signal() {
    if (executor != null) {
      executor.execute(this::drain);
    }
  }

  /** Runs dispatch cycles until one releases nothing; returns how many requests were released. */
  public int drain() {
    sweepExpired();
    int released = 0;
    while (released < Integer.MAX_VALUE && dispatchCycle()) {
      released++;
    }
    return released;
  }

  /** One dispatch cycle: releases at most one request. Returns whether it did. */
  public boolean dispatchCycle() {
    double sat = saturation.getAsDouble();
    observer.saturation(sat);
    Ticket chosen = null;
    lock.lock();
    try {
      if (totalRequests == 0) {
        return false;
      }
      if (priorities.length != bands.size()) {
        priorities = bands.keySet().stream().mapToInt(Integer::intValue).toArray();
        ceilings = new double[priorities.length];
      }
      Arrays.fill(ceilings, 1.0); // a ceiling the policy leaves alone does not gate
      usageLimits.ceilings(sat, priorities, ceilings);
      int i = 0;
      for (PriorityBand band : bands.values()) {
        if (sat >= ceilings[i++]) {
          return false; // head-of-line blocking across bands: no lower band may overtake
        }
        if (band.requests() == 0) {
          continue;
        }
        chosen = band.poll();
        if (chosen != null) {
          leftQueue(chosen);
          break;
        }
      }
    } finally {
      lock.unlock();
    }
    if (chosen == null) {
      return false;
    }
    complete(chosen, FlowOutcome.DISPATCHED, nanoClock.getAsLong());
    return true;
  }

  /** A ticket left its band's queue: the totals follow. */
  private void leftQueue(Ticket t) {
    totalBytes -= t.bytes;
    totalRequests--;
  }

  /** Evicts requests past their TTL (503). */
  public void sweepExpired() {
    long now = nanoClock.getAsLong();
    List<Ticket> expired = new ArrayList<>();
    lock.lock();
    try {
      for (PriorityBand band : bands.values()) {
        band.expire(now, expired);
      }
      expired.forEach(this::leftQueue);
    } finally {
      lock.unlock();
    }
    for (Ticket t : expired) {
      complete(t, FlowOutcome.EVICTED_TTL, now);
    }
  }

  private void finishIfQueued(Ticket ticket, FlowOutcome outcome) {
    boolean removed = false;
    lock.lock();
    try {
      if (ticket.queued) {
        PriorityBand band = bands.get(ticket.priority);
        if (band != null && band.remove(ticket)) {
          leftQueue(ticket);
          removed = true;
        }
      }
    } finally {
      lock.unlock();
    }
    if (removed) {
      complete(ticket, outcome, nanoClock.getAsLong());
    }
  }

  private void complete(Ticket t, FlowOutcome outcome, long now) {
    observer.outcome(t.fairnessId, t.priority, outcome, now - t.enqueuedNanos);
    t.outcome.complete(outcome);
  }

  private void ensureTicker() {
    if (ticker == null && executor != null && tickNanos > 0) {
      ticker = executor.scheduleAtFixedRate(this::tick, tickNanos, tickNanos, TimeUnit.NANOSECONDS);
    }
  }

  private void tick() {
    drain();
    lock.lock();
    try {
      if (totalRequests == 0 && ticker != null) {
        ticker.cancel(false);
        ticker = null;
      }
    } finally {
      lock.unlock();
    }
  }

  /** Flows (fairness ids) with requests queued, over all bands. */
  public int flowCount() {
    lock.lock();
    try {
      int n = 0;
      for (PriorityBand b : bands.values()) {
        n += b.flowCount();
      }
      return n;
    } finally {
      lock.unlock();
    }
  }

  /** Requests queued, per priority then fairness id (for {@code inference_extension_flow_control_queue_size}). */
  public Map<Integer, Map<String, long[]>> queueSizes() {
    Map<Integer, Map<String, long[]>> out = new LinkedHashMap<>();
    lock.lock();
    try {
      for (Map.Entry<Integer, PriorityBand> e : bands.entrySet()) {
        out.put(e.getKey(), e.getValue().sizes());
      }
    } finally {
      lock.unlock();
    }
    return out;
  }

  /** Requests queued in total. */
  public long queuedRequests() {
    lock.lock();
    try {
      return totalRequests;
    } finally {
      lock.unlock();
    }
  }

  /** Rejects everything queued and stops accepting. */
  @Override
  public void close() {
    List<Ticket> all = new ArrayList<>();
    lock.lock();
    try {
      closed = true;
      for (PriorityBand band : bands.values()) {
        band.drainTo(all);
      }
      totalBytes = 0;
      totalRequests = 0;
      if (ticker != null) {
        ticker.cancel(false);
        ticker = null;
      }
    } finally {
      lock.unlock();
    }
    long now = nanoClock.getAsLong();
    for (Ticket t : all) {
      t.queued = false;
      complete(t, FlowOutcome.REJECTED_OTHER, now);
    }
  }
}
