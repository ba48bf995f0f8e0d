package dev.modelplane.operator.scheduling;

import dev.modelplane.api.llmkube.v1alpha1.SchedulingPriority;

/**
 * LLMKube's priority tiers and the PriorityClass each maps to. Values and preemption policies are upstream's
 * ({@code config/manager/priority_classes.yaml}); {@code deploy/operator/priority-classes.yaml} holds the same.
 */
public enum PriorityTier {
  CRITICAL("llmkube-critical", 1_000_000, "PreemptLowerPriority"),
  HIGH("llmkube-high", 100_000, "PreemptLowerPriority"),
  NORMAL("llmkube-normal", 10_000, "PreemptLowerPriority"),
  LOW("llmkube-low", 1_000, "PreemptLowerPriority"),
  BATCH("llmkube-batch", 100, "Never");

  private final String className;
  private final int value;
  private final String preemptionPolicy;

  PriorityTier(String className, int value, String preemptionPolicy) {
    this.className = className;
    this.value = value;
    this.preemptionPolicy = preemptionPolicy;
  }

  /** The tier of {@code spec.priority}; normal when unset. */
  public static PriorityTier of(SchedulingPriority priority) {
    return priority == null ? NORMAL : valueOf(priority.name());
  }

  /** The tier whose class has this name, or null. */
  public static PriorityTier byClassName(String name) {
    for (PriorityTier tier : values()) {
      if (tier.className.equals(name)) {
        return tier;
      }
    }
    return null;
  }

  public String className() {
    return className;
  }

  public int value() {
    return value;
  }

  public String preemptionPolicy() {
    return preemptionPolicy;
  }
}
