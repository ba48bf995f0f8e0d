package dev.modelplane.router.flowcontrol;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Dispatch ordering and shedding, driven by hand: no executor, no sleeps. */
class FlowControllerTest {
  private final AtomicLong now = new AtomicLong(0);
  private double saturation = 2.0; // saturated until a test opens the gate

  private FlowController controller(FlowControlConfig config) {
    return new FlowController(config, () -> saturation, UsageLimitPolicy.NONE, now::get, null, null, 0);
  }

  private static List<String> order(List<FlowController.Ticket> tickets, List<String> names) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < tickets.size(); i++) {
      if (tickets.get(i).outcome().getNow(null) == FlowOutcome.DISPATCHED) {
        out.add(names.get(i));
      }
    }
    return out;
  }

  @Test
  void withAnEmptyQueueARequestIsDecidedOnTheCallersThreadAndBehindOthersItWaitsForTheExecutor() {
    List<Runnable> handedOff = new ArrayList<>();
    ScheduledExecutorService executor = new ScheduledThreadPoolExecutor(1) {
      @Override
      public void execute(Runnable command) {
        handedOff.add(command);
      }
    };
    try (FlowController fc = new FlowController(FlowControlConfig.DEFAULT, () -> saturation, UsageLimitPolicy.NONE,
        now::get, executor, null, 0)) {
      saturation = 0.2;
      assertThat(fc.enqueue("f", 0, 1, 0).outcome().getNow(null)).isEqualTo(FlowOutcome.DISPATCHED);
      assertThat(handedOff).isEmpty();
      saturation = 2.0;
      FlowController.Ticket held = fc.enqueue("f", 0, 1, 0);
      assertThat(held.outcome()).isNotDone();
      FlowController.Ticket behind = fc.enqueue("f", 0, 1, 0);
      assertThat(handedOff).hasSize(1); // the queue was not empty: a cycle is asked of the executor
      saturation = 0.2;
      handedOff.get(0).run();
      assertThat(held.outcome().getNow(null)).isEqualTo(FlowOutcome.DISPATCHED);
      assertThat(behind.outcome().getNow(null)).isEqualTo(FlowOutcome.DISPATCHED);
    } finally {
      executor.shutdownNow();
    }
  }

  @Test
  void higherPriorityBandsDispatchFirstThenFcfs() {
    FlowController fc = controller(FlowControlConfig.DEFAULT);
    List<FlowController.Ticket> t = new ArrayList<>();
    List<String> names = List.of("low-1", "high-1", "mid-1", "high-2", "low-2");
    int[] prio = {-1, 10, 0, 10, 0 - 1};
    for (int i = 0; i < names.size(); i++) {
      now.incrementAndGet();
      t.add(fc.enqueue("default-flow", prio[i], 100, 0));
    }
    assertThat(fc.queuedRequests()).isEqualTo(5);
    List<String> dispatched = new ArrayList<>();
    saturation = 0.5;
    while (fc.dispatchCycle()) {
      for (int i = 0; i < t.size(); i++) {
        if (t.get(i).outcome().getNow(null) == FlowOutcome.DISPATCHED && !dispatched.contains(names.get(i))) {
          dispatched.add(names.get(i));
        }
      }
    }
    assertThat(dispatched).containsExactly("high-1", "high-2", "mid-1", "low-1", "low-2");
  }

  @Test
  void saturationBlocksEveryBand() {
    FlowController fc = controller(FlowControlConfig.DEFAULT);
    FlowController.Ticket a = fc.enqueue("f", 5, 1, 0);
    FlowController.Ticket b = fc.enqueue("f", -5, 1, 0);
    assertThat(fc.drain()).isZero();
    assertThat(a.outcome()).isNotDone();
    assertThat(b.outcome()).isNotDone();
    saturation = 0.99;
    assertThat(fc.drain()).isEqualTo(2);
  }

  @Test
  void globalStrictFairnessServesTheOldestHeadAcrossFlows() {
    FlowController fc = controller(FlowControlConfig.DEFAULT);
    List<FlowController.Ticket> t = new ArrayList<>();
    for (String f : List.of("tenant-a", "tenant-a", "tenant-b", "tenant-a", "tenant-b")) {
      now.incrementAndGet();
      t.add(fc.enqueue(f, 0, 1, 0));
    }
    saturation = 0;
    List<String> names = List.of("a1", "a2", "b1", "a3", "b2");
    List<String> dispatched = new ArrayList<>();
    while (fc.dispatchCycle()) {
      order(t, names).stream().filter(n -> !dispatched.contains(n)).forEach(dispatched::add);
    }
    assertThat(dispatched).containsExactly("a1", "a2", "b1", "a3", "b2");
  }

  @Test
  void roundRobinFairnessAlternatesFlows() {
    FlowControlConfig config = new FlowControlConfig(0, 0, Duration.ZERO,
        new FlowControlConfig.BandConfig(0, 0, 0, FlowControlConfig.ROUND_ROBIN, null), List.of());
    FlowController fc = controller(config);
    List<FlowController.Ticket> t = new ArrayList<>();
    for (String f : List.of("a", "a", "a", "b", "b")) {
      now.incrementAndGet();
      t.add(fc.enqueue(f, 0, 1, 0));
    }
    saturation = 0;
    List<String> names = List.of("a1", "a2", "a3", "b1", "b2");
    List<String> dispatched = new ArrayList<>();
    while (fc.dispatchCycle()) {
      order(t, names).stream().filter(n -> !dispatched.contains(n)).forEach(dispatched::add);
    }
    assertThat(dispatched).containsExactly("a1", "b1", "a2", "b2", "a3");
  }

  @Test
  void perFlowStateLeavesWithTheFlowsLastRequestWhileTheBandStaysBusy() {
    FlowController fc = controller(FlowControlConfig.DEFAULT);
    FlowController.Ticket keep = fc.enqueue("keep", 0, 1, 0); // saturated: stays queued, the band never empties
    for (int i = 0; i < 10_000; i++) {
      fc.enqueue("client-" + i, 0, 1, 0).cancel();
    }
    assertThat(fc.queuedRequests()).isEqualTo(1);
    assertThat(fc.queueSizes().get(0)).as("one entry per fairness id ever seen would grow without bound")
        .containsOnlyKeys("keep");
    saturation = 0;
    for (int i = 0; i < 1000; i++) {
      now.incrementAndGet();
      fc.enqueue("other-" + i, 0, 1, 0);
      assertThat(fc.dispatchCycle()).isTrue(); // served oldest first: keep, then each newcomer as it comes
    }
    assertThat(keep.outcome().getNow(null)).isEqualTo(FlowOutcome.DISPATCHED);
    assertThat(fc.queueSizes().get(0)).hasSize(1);
    assertThat(fc.dispatchCycle()).isTrue();
    assertThat(fc.queueSizes().get(0)).isEmpty();
  }

  @Test
  void roundRobinTakesTurnsAcrossFlowsThatLeaveAndComeBack() {
    FlowControlConfig config = new FlowControlConfig(0, 0, Duration.ZERO,
        new FlowControlConfig.BandConfig(0, 0, 0, FlowControlConfig.ROUND_ROBIN, null), List.of());
    FlowController fc = controller(config);
    List<FlowController.Ticket> t = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (String f : List.of("a", "b", "c")) {
      t.add(fc.enqueue(f, 0, 1, 0));
      names.add(f + "1");
    }
    saturation = 0;
    assertThat(fc.dispatchCycle()).isTrue(); // a1; flow a leaves
    t.add(fc.enqueue("a", 0, 1, 0)); // a comes back behind b and c
    names.add("a2");
    List<String> dispatched = new ArrayList<>(List.of("a1"));
    while (fc.dispatchCycle()) {
      order(t, names).stream().filter(n -> !dispatched.contains(n)).forEach(dispatched::add);
    }
    assertThat(dispatched).containsExactly("a1", "b1", "c1", "a2");
  }

  @Test
  void capacityLimitsRejectWith429() {
    FlowControlConfig config = new FlowControlConfig(0, 2, Duration.ZERO,
        new FlowControlConfig.BandConfig(0, 150, 0, null, null), List.of());
    FlowController fc = controller(config);
    FlowController.Ticket a = fc.enqueue("f", 0, 100, 0);
    FlowController.Ticket tooBig = fc.enqueue("f", 0, 100, 0); // band bytes 200 > 150
    FlowController.Ticket other = fc.enqueue("f", 1, 10, 0);
    FlowController.Ticket third = fc.enqueue("f", 2, 10, 0); // global maxRequests 2
    assertThat(a.outcome()).isNotDone();
    assertThat(tooBig.outcome().join()).isEqualTo(FlowOutcome.REJECTED_CAPACITY);
    assertThat(other.outcome()).isNotDone();
    assertThat(third.outcome().join()).isEqualTo(FlowOutcome.REJECTED_CAPACITY);
    assertThat(FlowOutcome.REJECTED_CAPACITY.httpStatus()).isEqualTo(429);
  }

  @Test
  void ttlEvictsWith503AndCancellationLeavesTheQueue() {
    FlowControlConfig config = new FlowControlConfig(0, 0, Duration.ofSeconds(1), FlowControlConfig.DEFAULT.defaultBand(),
        List.of());
    FlowController fc = controller(config);
    FlowController.Ticket expires = fc.enqueue("f", 0, 1, 0);
    FlowController.Ticket shortTtl = fc.enqueue("f", 0, 1, Duration.ofMillis(10).toNanos());
    FlowController.Ticket cancelled = fc.enqueue("f", 0, 1, 0);
    now.addAndGet(Duration.ofMillis(20).toNanos());
    fc.sweepExpired();
    assertThat(shortTtl.outcome().join()).isEqualTo(FlowOutcome.EVICTED_TTL);
    assertThat(expires.outcome()).isNotDone();
    cancelled.cancel();
    assertThat(cancelled.outcome().join()).isEqualTo(FlowOutcome.EVICTED_CONTEXT_CANCELLED);
    now.addAndGet(Duration.ofSeconds(1).toNanos());
    fc.sweepExpired();
    assertThat(expires.outcome().join()).isEqualTo(FlowOutcome.EVICTED_TTL);
    assertThat(FlowOutcome.EVICTED_TTL.httpStatus()).isEqualTo(503);
    assertThat(fc.queuedRequests()).isZero();
  }

  @Test
  void closeRejectsEverythingQueued() {
    FlowController fc = controller(FlowControlConfig.DEFAULT);
    FlowController.Ticket t = fc.enqueue("f", 0, 1, 0);
    fc.close();
    assertThat(t.outcome().join()).isEqualTo(FlowOutcome.REJECTED_OTHER);
    assertThat(fc.enqueue("f", 0, 1, 0).outcome().join()).isEqualTo(FlowOutcome.REJECTED_OTHER);
  }

  @Test
  void aUsageLimitPolicyHoldsLowerBandsBackWhileHigherOnesStillDispatch() {
    // Ceilings 1.0 / 0.75 / 0.5 for the three bands (priority-holdback, rank, minCeiling 0.5).
    UsageLimitPolicy holdback = new UsageLimitPolicies.PriorityHoldback("h", 0.5, 1.0, false);
    FlowControlConfig bands = new FlowControlConfig(0, 0, Duration.ZERO, FlowControlConfig.DEFAULT.defaultBand(),
        List.of(new FlowControlConfig.BandConfig(100, 0, 0, null, null),
            new FlowControlConfig.BandConfig(0, 0, 0, null, null),
            new FlowControlConfig.BandConfig(-10, 0, 0, null, null)));
    FlowController fc = new FlowController(bands, () -> saturation, holdback, now::get, null, null, 0);
    FlowController.Ticket sheddable = fc.enqueue("f", -10, 1, 0);
    FlowController.Ticket standard = fc.enqueue("f", 0, 1, 0);
    saturation = 0.6; // above the sheddable band's ceiling, below the standard band's
    assertThat(fc.drain()).isEqualTo(1);
    assertThat(standard.outcome().getNow(null)).isEqualTo(FlowOutcome.DISPATCHED);
    assertThat(sheddable.outcome()).isNotDone();
    saturation = 0.8; // the standard band's ceiling is reached: it stops there, even with nothing queued in it
    FlowController.Ticket critical = fc.enqueue("f", 100, 1, 0);
    assertThat(fc.drain()).isEqualTo(1);
    assertThat(critical.outcome().getNow(null)).isEqualTo(FlowOutcome.DISPATCHED);
    assertThat(sheddable.outcome()).isNotDone();
    saturation = 0.4;
    assertThat(fc.drain()).isEqualTo(1);
    assertThat(sheddable.outcome().getNow(null)).isEqualTo(FlowOutcome.DISPATCHED);
  }
}
