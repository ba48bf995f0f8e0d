package dev.modelplane.router.request;

import dev.modelplane.router.config.SchedulingSetup;
import dev.modelplane.router.flowcontrol.FlowControlConfig;
import dev.modelplane.router.flowcontrol.FlowController;
import dev.modelplane.router.flowcontrol.FlowOutcome;
import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.PoolKey;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.LongSupplier;

/**
 * The admit step: without the {@code flowControl} gate, GIE's legacy rule (a sheddable request — negative priority —
 * is dropped while the pool is saturated); with it, one flow controller per pool that queues requests by priority and
 * fairness id until the pool has room.
 */
final class Admission implements AutoCloseable {
  private final SchedulingSetup setup;
  private final RouterMetrics metrics;
  private final LongSupplier nanoClock;
  private final ScheduledExecutorService flowExecutor;
  private final Map<PoolKey, FlowController> flowControllers = new ConcurrentHashMap<>();
  /**
   * The pool object each flow controller measures: the latest one admitted to under that key, since a pool deleted
   * and created again under the same name is a new object (the old one stays empty, which reads as saturated).
   */
  private final Map<PoolKey, EndpointPool> currentPools = new ConcurrentHashMap<>();

  /** A request waiting for admission; {@link #cancel()} withdraws it from its queue. */
  record Ticket(CompletableFuture<Void> admitted, Runnable cancel) {
  }

  Admission(SchedulingSetup setup, RouterMetrics metrics, LongSupplier nanoClock,
      ScheduledExecutorService flowExecutor) {
    this.setup = setup;
    this.metrics = metrics;
    this.nanoClock = nanoClock;
    this.flowExecutor = flowExecutor;
  }

  /**
   * Admits a request to {@code pool}. The future completes when it may be scheduled, or fails with a
   * {@link RouterException}: 429 when shed or over the queue's capacity, 503 when it timed out in the queue or the
   * client went away.
   */
  Ticket admit(EndpointPool pool, List<EndpointState> candidates, ParsedRequest parsed) {
    if (setup.flowControl() == null) {
      if (parsed.priority() < 0 && setup.saturationDetector().saturation(candidates) >= 1.0) {
        return new Ticket(CompletableFuture.failedFuture(new RouterException(ErrorCode.RESOURCE_EXHAUSTED,
            "system saturated, sheddable request dropped")), () -> { });
      }
      return new Ticket(CompletableFuture.completedFuture(null), () -> { });
    }
    FlowController.Ticket ticket = flowController(pool).enqueue(parsed.fairnessId(), parsed.priority(),
        parsed.forwardBody().length, 0);
    return new Ticket(ticket.outcome().thenApply(Admission::admittedOrThrow), ticket::cancel);
  }

  private static Void admittedOrThrow(FlowOutcome outcome) {
    return switch (outcome) {
      case DISPATCHED -> null;
      case REJECTED_CAPACITY -> throw new RouterException(ErrorCode.RESOURCE_EXHAUSTED,
          "request rejected by flow control: queue capacity exceeded");
      case EVICTED_TTL -> throw new RouterException(ErrorCode.SERVICE_UNAVAILABLE, "request timed out in queue");
      case EVICTED_CONTEXT_CANCELLED -> throw new RouterException(ErrorCode.SERVICE_UNAVAILABLE,
          "client disconnected");
      default -> throw new RouterException(ErrorCode.INTERNAL, "internal flow control error");
    };
  }

  /** A request left {@code pool} or its metrics changed: queued requests may now fit. */
  void capacityChanged(EndpointPool pool, boolean onlyIfQueued) {
    FlowController fc = flowControllers.get(pool.key());
    if (fc != null) {
      currentPools.put(pool.key(), pool);
    }
    if (fc != null && (!onlyIfQueued || fc.queuedRequests() > 0)) {
      fc.signal();
    }
  }

  private FlowController flowController(EndpointPool pool) {
    currentPools.put(pool.key(), pool);
    return flowControllers.computeIfAbsent(pool.key(), k -> {
      FlowControlConfig config = setup.flowControl();
      FlowController fc = new FlowController(config,
          () -> setup.saturationDetector().saturation(currentPools.get(k).endpoints()),
          setup.usageLimits(), nanoClock, flowExecutor, metrics.flowObserver(k.toString()), 2_000_000L);
      metrics.flowController(k.toString(), fc);
      return fc;
    });
  }

  /** Stops flow control, rejecting what is queued. */
  @Override
  public void close() {
    flowControllers.values().forEach(FlowController::close);
  }
}
