package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.operator.scheduling.GpuQueue;
import dev.modelplane.operator.scheduling.PriorityTier;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Services waiting for GPUs: their place in the {@link GpuQueue}, and which of them want to hear about node capacity
 * changes (a waiting GPU service, or one asking for more GPUs than any node has).
 */
final class GpuWaits {
  private final GpuQueue queue;
  private final Set<ResourceID> capacityWatchers = ConcurrentHashMap.newKeySet();
  /**
   * Services deleted lately, by uid, and when: the finalizer's controller forgets a service while the serving
   * controller may still be in a reconcile that read it before the deletion; that reconcile must not queue it again.
   */
  private final Map<String, Instant> deleted = new ConcurrentHashMap<>();
  private static final java.time.Duration DELETED_KEPT = java.time.Duration.ofMinutes(10);

  GpuWaits(GpuQueue queue) {
    this.queue = queue;
  }

  /** Queues a waiting service (or takes it out) and returns its 1-based position, 0 when not queued. */
  int track(InferenceService isvc, boolean waiting, Integer priority, boolean watchCapacity) {
    String ns = isvc.getMetadata().getNamespace();
    String name = isvc.getMetadata().getName();
    if (watchCapacity) {
      capacityWatchers.add(ResourceID.fromResource(isvc));
    } else {
      capacityWatchers.remove(ResourceID.fromResource(isvc));
    }
    String uid = isvc.getMetadata().getUid();
    if (!waiting || (uid != null && deleted.containsKey(uid))) {
      return queue.remove(ns, name);
    }
    int position = queue.enqueue(new GpuQueue.Entry(ns, name, priority == null ? 0 : priority, created(isvc)));
    if (uid != null && deleted.containsKey(uid)) { // forgotten while it was being queued
      return queue.remove(ns, name);
    }
    return position;
  }

  /** Forgets a deleted service. */
  void forget(InferenceService isvc) {
    Instant now = Instant.now();
    deleted.values().removeIf(at -> at.isBefore(now.minus(DELETED_KEPT)));
    if (isvc.getMetadata().getUid() != null) {
      deleted.put(isvc.getMetadata().getUid(), now);
    }
    queue.remove(isvc.getMetadata().getNamespace(), isvc.getMetadata().getName());
    capacityWatchers.remove(ResourceID.fromResource(isvc));
  }

  /** The services the node informer should wake. */
  Set<ResourceID> capacityWatchers() {
    return Set.copyOf(capacityWatchers);
  }

  GpuQueue queue() {
    return queue;
  }

  private static Instant created(InferenceService isvc) {
    String ts = isvc.getMetadata().getCreationTimestamp();
    return ts == null ? Instant.EPOCH : Instant.parse(ts);
  }

  /** The value of the PriorityClass the pods use; the tier's value when the class is not (yet) in the cluster. */
  static Integer effectivePriority(InferenceService isvc, Map<String, Integer> classes) {
    String className = IsvcEventSources.priorityClassName(isvc);
    if (classes.containsKey(className)) {
      return classes.get(className);
    }
    PriorityTier tier = PriorityTier.byClassName(className);
    return tier == null ? null : tier.value();
  }
}
