package dev.modelplane.router.flowcontrol;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
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
 * Within a band the fairness policy picks a flow and the flow's oldest request is released (FCFS). Each cycle
 * releases one request; cycles run on enqueue, on {@link #signal()} (metrics update, request finished) and on a
 * periodic tick while anything is queued.
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
    private final String fairnessId;
    private final int priority;
    private final long bytes;
    private final long enqueuedNanos;
    private final long deadlineNanos;
    private final CompletableFuture<FlowOutcome> outcome = new CompletableFuture<>();
    private boolean queued;

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

  private static final class Flow {
    final ArrayDeque<Ticket> queue = new ArrayDeque<>();
  }

  private static final class Band {
    final FlowControlConfig.BandConfig config;
    /** Flows with queued requests only: a flow leaves when its queue empties, so fairness ids cannot pile up. */
    final TreeMap<String, Flow> flows = new TreeMap<>();
    long bytes;
    long requests;
    /** The flow round-robin served last; the next turn goes to the first flow after it in id order. */
    String lastServed;

    Band(FlowControlConfig.BandConfig config) {
      this.config = config;
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
  private final TreeMap<Integer, Band> bands = new TreeMap<>(Comparator.reverseOrder());
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
      bands.put(b.priority(), new Band(b));
    }
  }

  /** Queues a request. {@code ttlNanos ≤ 0} uses the default TTL ({@code 0} there means no limit). */
  public Ticket enqueue(String fairnessId, int priority, long bytes, long ttlNanos) {
    long now = nanoClock.getAsLong();
    long ttl = ttlNanos > 0 ? ttlNanos : config.defaultRequestTtl().toNanos();
    Ticket ticket = new Ticket(fairnessId, priority, bytes, now, ttl > 0 ? now + ttl : Long.MAX_VALUE);
    FlowOutcome rejected = null;
    lock.lock();
    try {
      if (closed) {
        rejected = FlowOutcome.REJECTED_OTHER;
      } else {
        Band band = bands.computeIfAbsent(priority, p -> new Band(config.bandFor(p)));
        if (exceeds(band, bytes)) {
          rejected = FlowOutcome.REJECTED_CAPACITY;
        } else {
          band.flows.computeIfAbsent(fairnessId, f -> new Flow()).queue.addLast(ticket);
          ticket.queued = true;
          band.bytes += bytes;
          band.requests++;
          totalBytes += bytes;
          totalRequests++;
          ensureTicker();
        }
      }
    } finally {
      lock.unlock();
    }
    if (rejected != null) {
      complete(ticket, rejected, now);
    } else {
      signal();
    }
    return ticket;
  }

  private boolean exceeds(Band band, long bytes) {
    if (config.maxRequests() > 0 && totalRequests + 1 > config.maxRequests()) {
      return true;
    }
    if (config.maxBytes() > 0 && totalBytes + bytes > config.maxBytes()) {
      return true;
    }
    if (band.config.maxRequests() > 0 && band.requests + 1 > band.config.maxRequests()) {
      return true;
    }
    return band.bytes + bytes > band.config.effectiveMaxBytes();
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
      for (Band band : bands.values()) {
        if (sat >= ceilings[i++]) {
          return false; // head-of-line blocking across bands: no lower band may overtake
        }
        if (band.requests == 0) {
          continue;
        }
        chosen = pickAndRemove(band);
        if (chosen != null) {
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

  private Ticket pickAndRemove(Band band) {
    Flow flow = null;
    if (FlowControlConfig.ROUND_ROBIN.equals(band.config.fairnessPolicy())) {
      Map.Entry<String, Flow> next = band.lastServed == null ? null : band.flows.higherEntry(band.lastServed);
      if (next == null) {
        next = band.flows.firstEntry();
      }
      if (next != null) {
        flow = next.getValue();
        band.lastServed = next.getKey();
      }
    } else {
      long oldest = Long.MAX_VALUE;
      for (Flow f : band.flows.values()) {
        Ticket head = f.queue.peekFirst();
        if (head != null && head.enqueuedNanos < oldest) {
          oldest = head.enqueuedNanos;
          flow = f;
        }
      }
    }
    if (flow == null) {
      return null;
    }
    Ticket t = flow.queue.pollFirst();
    unaccount(band, t);
    return t;
  }

  private void unaccount(Band band, Ticket t) {
    Flow flow = band.flows.get(t.fairnessId);
    if (flow != null && flow.queue.isEmpty()) {
      band.flows.remove(t.fairnessId);
    }
    t.queued = false;
    band.bytes -= t.bytes;
    band.requests--;
    totalBytes -= t.bytes;
    totalRequests--;
    if (band.requests == 0) {
      band.flows.clear();
    }
  }

  /** Evicts requests past their TTL (503). */
  public void sweepExpired() {
    long now = nanoClock.getAsLong();
    List<Ticket> expired = new ArrayList<>();
    lock.lock();
    try {
      for (Band band : bands.values()) {
        for (Flow flow : band.flows.values()) {
          for (Iterator<Ticket> it = flow.queue.iterator(); it.hasNext(); ) {
            Ticket t = it.next();
            if (t.deadlineNanos != Long.MAX_VALUE && now - t.deadlineNanos >= 0) {
              it.remove();
              expired.add(t);
            }
          }
        }
        for (Ticket t : expired) {
          if (t.queued && t.priority == band.config.priority()) {
            unaccount(band, t);
          }
        }
      }
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
        Band band = bands.get(ticket.priority);
        Flow flow = band == null ? null : band.flows.get(ticket.fairnessId);
        if (flow != null && flow.queue.remove(ticket)) {
          unaccount(band, ticket);
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
      for (Band b : bands.values()) {
        n += b.flows.size();
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
      for (Map.Entry<Integer, Band> e : bands.entrySet()) {
        Map<String, long[]> flows = new LinkedHashMap<>();
        for (Map.Entry<String, Flow> f : e.getValue().flows.entrySet()) {
          long bytes = 0;
          for (Ticket t : f.getValue().queue) {
            bytes += t.bytes;
          }
          flows.put(f.getKey(), new long[] {f.getValue().queue.size(), bytes});
        }
        out.put(e.getKey(), flows);
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
      for (Band band : bands.values()) {
        band.flows.values().forEach(f -> all.addAll(f.queue));
        band.flows.clear();
        band.bytes = 0;
        band.requests = 0;
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
