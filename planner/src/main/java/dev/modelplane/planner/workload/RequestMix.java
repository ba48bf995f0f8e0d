package dev.modelplane.planner.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * Who sends a request: its priority, its LoRA adapter, its fairness flow.
 *
 * @param priorities priority to weight (weights need not add up to 1); one priority 0 when empty
 * @param loraShare the fraction of requests that name an adapter, 0..1
 * @param adapters the adapters, chosen uniformly; needs at least one when {@code loraShare} > 0
 * @param tenants the fairness ids, chosen uniformly; at least one
 */
public record RequestMix(Map<Integer, Double> priorities, double loraShare, List<String> adapters,
    List<String> tenants) {
  /** The flow of a workload that names no tenants. */
  public static final String DEFAULT_FLOW = "default-flow";
  /** Every request at priority 0, no LoRA, one flow. */
  public static final RequestMix DEFAULT = new RequestMix(Map.of(0, 1.0), 0, List.of(), List.of(DEFAULT_FLOW));

  public RequestMix {
    priorities = java.util.Collections.unmodifiableMap(new TreeMap<>(priorities.isEmpty() ? Map.of(0, 1.0)
        : priorities));
    adapters = List.copyOf(adapters);
    tenants = List.copyOf(tenants);
    for (Map.Entry<Integer, Double> e : priorities.entrySet()) {
      if (!(e.getValue() > 0) || Double.isInfinite(e.getValue())) {
        throw new IllegalArgumentException("priority " + e.getKey() + " needs a weight > 0, got " + e.getValue());
      }
    }
    if (!(loraShare >= 0 && loraShare <= 1)) {
      throw new IllegalArgumentException("the LoRA share must be between 0 and 1, got " + loraShare);
    }
    if (loraShare > 0 && adapters.isEmpty()) {
      throw new IllegalArgumentException("a LoRA share above 0 needs at least one adapter");
    }
    if (tenants.isEmpty()) {
      throw new IllegalArgumentException("at least one tenant is needed");
    }
  }

  /** {@code count} adapters named {@code adapter-1}…, or tenants {@code tenant-1}…. */
  public static List<String> numbered(String stem, int count) {
    return IntStream.rangeClosed(1, count).mapToObj(i -> stem + "-" + i).toList();
  }

  /** The priority of the next request; draws one value. */
  int priority(SplittableRandom random) {
    double total = priorities.values().stream().mapToDouble(Double::doubleValue).sum();
    double pick = random.nextDouble() * total;
    int last = 0;
    for (Map.Entry<Integer, Double> e : priorities.entrySet()) {
      last = e.getKey();
      pick -= e.getValue();
      if (pick < 0) {
        return last;
      }
    }
    return last;
  }

  /** The adapter of the next request or null; draws two values. */
  String adapter(SplittableRandom random) {
    boolean lora = random.nextDouble() < loraShare;
    int which = random.nextInt(Math.max(1, adapters.size()));
    return lora ? adapters.get(which) : null;
  }

  /** The fairness id of the next request; draws one value. */
  String tenant(SplittableRandom random) {
    return tenants.get(random.nextInt(tenants.size()));
  }

  /** What differs from the default, e.g. {@code 10% LoRA, priorities 0: 90%, -1: 10%, 4 tenants}; empty if nothing. */
  String describe() {
    List<String> parts = new ArrayList<>();
    if (loraShare > 0) {
      parts.add(LengthDistribution.number(loraShare * 100) + "% LoRA (" + adapters.size() + " adapter"
          + (adapters.size() == 1 ? ")" : "s)"));
    }
    if (!priorities.keySet().equals(java.util.Set.of(0))) {
      double total = priorities.values().stream().mapToDouble(Double::doubleValue).sum();
      Map<Integer, String> shares = new LinkedHashMap<>();
      new TreeMap<>(priorities).descendingMap().forEach((p, w) -> shares.put(p,
          LengthDistribution.number(w / total * 100) + "%"));
      parts.add("priorities " + shares.toString().replace("=", ": ").replace("{", "").replace("}", ""));
    }
    if (tenants.size() > 1) {
      parts.add(tenants.size() + " tenants");
    }
    return String.join(", ", parts);
  }
}
