package dev.modelplane.router.flowcontrol;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The requests queued at one priority: a FIFO per flow (fairness id), and the fairness policy that picks the flow
 * served next — round-robin over the flows in id order, or the flow whose head waited longest. Not thread-safe: the
 * {@link FlowController}'s lock guards it.
 */
final class PriorityBand {
  final FlowControlConfig.BandConfig config;
  /** Flows with queued requests only: a flow leaves when its queue empties, so fairness ids cannot pile up. */
  private final TreeMap<String, ArrayDeque<FlowController.Ticket>> flows = new TreeMap<>();
  private long bytes;
  private long requests;
  /** The flow round-robin served last; the next turn goes to the first flow after it in id order. */
  private String lastServed;

  PriorityBand(FlowControlConfig.BandConfig config) {
    this.config = config;
  }

  /** Requests queued. */
  long requests() {
    return requests;
  }

  /** Flows with requests queued. */
  int flowCount() {
    return flows.size();
  }

  /** Whether the band's own limits leave room for one more request of {@code bytes}. */
  boolean fits(long bytes) {
    if (config.maxRequests() > 0 && requests + 1 > config.maxRequests()) {
      return false;
    }
    return this.bytes + bytes <= config.effectiveMaxBytes();
  }

  void add(FlowController.Ticket t) {
    flows.computeIfAbsent(t.fairnessId, f -> new ArrayDeque<>()).addLast(t);
    t.queued = true;
    bytes += t.bytes;
    requests++;
  }

  /** Removes and returns the request the fairness policy serves next; {@code null} when none is queued. */
  FlowController.Ticket poll() {
    ArrayDeque<FlowController.Ticket> flow = null;
    if (FlowControlConfig.ROUND_ROBIN.equals(config.fairnessPolicy())) {
      Map.Entry<String, ArrayDeque<FlowController.Ticket>> next = lastServed == null ? null
          : flows.higherEntry(lastServed);
      if (next == null) {
        next = flows.firstEntry();
      }
      if (next != null) {
        flow = next.getValue();
        lastServed = next.getKey();
      }
    } else {
      long oldest = Long.MAX_VALUE;
      for (ArrayDeque<FlowController.Ticket> f : flows.values()) {
        FlowController.Ticket head = f.peekFirst();
        if (head != null && head.enqueuedNanos < oldest) {
          oldest = head.enqueuedNanos;
          flow = f;
        }
      }
    }
    if (flow == null) {
      return null;
    }
    FlowController.Ticket t = flow.pollFirst();
    unaccount(t);
    return t;
  }

  /** Removes a queued request; whether it was queued here. */
  boolean remove(FlowController.Ticket t) {
    ArrayDeque<FlowController.Ticket> flow = flows.get(t.fairnessId);
    if (flow == null || !flow.remove(t)) {
      return false;
    }
    unaccount(t);
    return true;
  }

  /** Removes the requests past their deadline at {@code now} into {@code expired}. */
  void expire(long now, List<FlowController.Ticket> expired) {
    int first = expired.size();
    for (ArrayDeque<FlowController.Ticket> flow : flows.values()) {
      for (Iterator<FlowController.Ticket> it = flow.iterator(); it.hasNext(); ) {
        FlowController.Ticket t = it.next();
        if (t.deadlineNanos != Long.MAX_VALUE && now - t.deadlineNanos >= 0) {
          it.remove();
          expired.add(t);
        }
      }
    }
    for (FlowController.Ticket t : expired.subList(first, expired.size())) {
      unaccount(t);
    }
  }

  /** Removes every request into {@code all}. */
  void drainTo(List<FlowController.Ticket> all) {
    flows.values().forEach(all::addAll);
    flows.clear();
    bytes = 0;
    requests = 0;
  }

  /** Requests and bytes queued per flow. */
  Map<String, long[]> sizes() {
    Map<String, long[]> out = new LinkedHashMap<>();
    for (Map.Entry<String, ArrayDeque<FlowController.Ticket>> f : flows.entrySet()) {
      long queued = 0;
      for (FlowController.Ticket t : f.getValue()) {
        queued += t.bytes;
      }
      out.put(f.getKey(), new long[] {f.getValue().size(), queued});
    }
    return out;
  }

  private void unaccount(FlowController.Ticket t) {
    ArrayDeque<FlowController.Ticket> flow = flows.get(t.fairnessId);
    if (flow != null && flow.isEmpty()) {
      flows.remove(t.fairnessId);
    }
    t.queued = false;
    bytes -= t.bytes;
    requests--;
    if (requests == 0) {
      flows.clear();
    }
  }
}
