package dev.modelplane.cli.devcluster;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The tracing environment of a simulated model server: the container's own {@code OTEL_*} variables, and — unless the
 * container names its resource attributes — the pod's name and namespace as {@code k8s.*} resource attributes, so
 * the spans of many simulators sharing one service name can be told apart.
 */
final class TracingEnv {
  private TracingEnv() {
  }

  static Map<String, String> of(Pod pod, Map<String, String> containerEnv) {
    Map<String, String> out = new LinkedHashMap<>();
    containerEnv.forEach((k, v) -> {
      if (k.startsWith("OTEL_") && v != null) {
        out.put(k, v);
      }
    });
    if (!out.containsKey("OTEL_RESOURCE_ATTRIBUTES") && pod.getMetadata() != null
        && pod.getMetadata().getName() != null) {
      String ns = pod.getMetadata().getNamespace() == null ? "default" : pod.getMetadata().getNamespace();
      out.put("OTEL_RESOURCE_ATTRIBUTES", "k8s.pod.name=" + pod.getMetadata().getName() + ",k8s.namespace.name="
          + ns);
    }
    return out;
  }
}
