package dev.modelplane.operator.ome.isvc;

import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * Deep copies of pod specs through JSON. A component spec (an engine, say) is a PodSpec subclass; the copy is a
 * plain PodSpec holding only the pod fields, which is what workloads embed.
 */
final class PodSpecCopy {
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private PodSpecCopy() {
  }

  /** A plain, independent PodSpec with the pod fields of {@code pod} (an empty one for null). */
  static PodSpec of(PodSpec pod) {
    if (pod == null) {
      return new PodSpec();
    }
    PodSpec copy = JSON.convertValue(pod, PodSpec.class);
    // The component's own fields (minReplicas, runner, …) land in the catch-all map of a plain PodSpec.
    copy.getAdditionalProperties().clear();
    return copy;
  }
}
