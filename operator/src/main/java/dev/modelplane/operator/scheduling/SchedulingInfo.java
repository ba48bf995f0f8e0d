package dev.modelplane.operator.scheduling;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Why an InferenceService's pods are not scheduled, read from the scheduler's {@code PodScheduled=False} condition
 * on its pending pods.
 *
 * @param status {@code InsufficientGPU}, {@code InsufficientResources} or {@code UnbindableModelCache}
 * @param message the scheduler's message
 * @param gpuResource the GPU resource named as insufficient, for {@code InsufficientGPU}
 */
public record SchedulingInfo(String status, String message, String gpuResource) {
  public static final String INSUFFICIENT_GPU = "InsufficientGPU";
  public static final String INSUFFICIENT_RESOURCES = "InsufficientResources";
  public static final String UNBINDABLE_MODEL_CACHE = "UnbindableModelCache";

  /**
   * The scheduling state of the oldest pending, unschedulable pod, or null when no pod waits for the scheduler.
   *
   * @param gpuResources resource names that count as GPUs (the one this service requests, plus every well-known one)
   */
  public static SchedulingInfo of(Collection<Pod> pods, Set<String> gpuResources) {
    return pods.stream()
        .filter(p -> p.getStatus() != null && "Pending".equals(p.getStatus().getPhase())
            && p.getMetadata().getDeletionTimestamp() == null)
        .sorted(Comparator.comparing((Pod p) -> p.getMetadata().getCreationTimestamp(),
            Comparator.nullsLast(Comparator.naturalOrder())))
        .map(p -> unschedulable(p))
        .filter(c -> c != null)
        .map(c -> classify(c.getMessage() == null ? "" : c.getMessage(), gpuResources))
        .filter(info -> info != null)
        .findFirst().orElse(null);
  }

  private static PodCondition unschedulable(Pod pod) {
    if (pod.getStatus().getConditions() == null) {
      return null;
    }
    return pod.getStatus().getConditions().stream()
        .filter(c -> "PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()))
        .findFirst().orElse(null);
  }

  static SchedulingInfo classify(String message, Set<String> gpuResources) {
    Set<String> candidates = new LinkedHashSet<>(gpuResources);
    for (String resource : candidates) {
      if (message.contains("Insufficient " + resource)) {
        return new SchedulingInfo(INSUFFICIENT_GPU, message, resource);
      }
    }
    if (message.contains("Insufficient nvidia.com/mig-")) {
      int start = message.indexOf("nvidia.com/mig-");
      int end = start;
      while (end < message.length() && !Character.isWhitespace(message.charAt(end)) && message.charAt(end) != ',') {
        end++;
      }
      String resource = message.substring(start, end).replaceAll("\\.+$", "");
      return new SchedulingInfo(INSUFFICIENT_GPU, message, resource);
    }
    if (message.contains("unbound immediate PersistentVolumeClaims")
        || message.contains("persistentvolumeclaim") && message.contains("not found")) {
      return new SchedulingInfo(UNBINDABLE_MODEL_CACHE, message, null);
    }
    if (message.contains("Insufficient")) {
      return new SchedulingInfo(INSUFFICIENT_RESOURCES, message, null);
    }
    return null;
  }
}
