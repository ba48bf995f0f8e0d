package dev.modelplane.operator.common;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Builds condition lists the Kubernetes way: one entry per type, {@code lastTransitionTime} moved only when the
 * status changes, {@code observedGeneration} always current.
 */
public final class Conditions {
  /** Condition status values. */
  public static final String TRUE = "True";
  public static final String FALSE = "False";
  public static final String UNKNOWN = "Unknown";

  private Conditions() {
  }

  /**
   * The previous list with {@code type} set to the given status, reason and message. If the previous entry of that
   * type had the same status, its {@code lastTransitionTime} is kept.
   */
  public static List<Condition> set(List<Condition> previous, String type, String status, String reason,
      String message, long observedGeneration, Instant now) {
    List<Condition> out = new ArrayList<>();
    boolean replaced = false;
    for (Condition old : previous == null ? List.<Condition>of() : previous) {
      if (Objects.equals(old.getType(), type)) {
        out.add(build(old, type, status, reason, message, observedGeneration, now));
        replaced = true;
      } else {
        out.add(old);
      }
    }
    if (!replaced) {
      out.add(build(null, type, status, reason, message, observedGeneration, now));
    }
    return out;
  }

  /** The previous list without the condition of {@code type}. */
  public static List<Condition> remove(List<Condition> previous, String type) {
    List<Condition> out = new ArrayList<>();
    for (Condition c : previous == null ? List.<Condition>of() : previous) {
      if (!Objects.equals(c.getType(), type)) {
        out.add(c);
      }
    }
    return out;
  }

  /** The condition of {@code type}, or null. */
  public static Condition find(List<Condition> conditions, String type) {
    if (conditions == null) {
      return null;
    }
    return conditions.stream().filter(c -> Objects.equals(c.getType(), type)).findFirst().orElse(null);
  }

  /** Whether the condition of {@code type} has status True. */
  public static boolean isTrue(List<Condition> conditions, String type) {
    Condition c = find(conditions, type);
    return c != null && TRUE.equals(c.getStatus());
  }

  private static Condition build(Condition old, String type, String status, String reason, String message,
      long observedGeneration, Instant now) {
    String transition = old != null && Objects.equals(old.getStatus(), status) && old.getLastTransitionTime() != null
        ? old.getLastTransitionTime()
        : now.truncatedTo(ChronoUnit.SECONDS).toString();
    return new ConditionBuilder()
        .withType(type)
        .withStatus(status)
        .withReason(reason)
        .withMessage(message == null ? "" : message)
        .withObservedGeneration(observedGeneration)
        .withLastTransitionTime(transition)
        .build();
  }
}
