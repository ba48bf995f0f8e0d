package dev.modelplane.router.pool;

import dev.modelplane.api.gie.v1.InferencePoolSpec;
import dev.modelplane.api.gie.v1.Port;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** Which pods are an InferencePool's endpoints, and at which ports (GIE's rules). */
final class PoolMembers {
  private PoolMembers() {
  }

  /** The names of {@link KubernetesDiscovery#SERVED_MODELS_ANNOTATION}, blanks dropped. */
  static Set<String> servedModels(Map<String, String> annotations) {
    String value = annotations == null ? null : annotations.get(KubernetesDiscovery.SERVED_MODELS_ANNOTATION);
    Set<String> names = new LinkedHashSet<>();
    if (value != null) {
      for (String name : value.split(",")) {
        if (!name.isBlank()) {
          names.add(name.strip());
        }
      }
    }
    return names;
  }

  static boolean matches(InferencePoolSpec spec, Map<String, String> labels) {
    if (spec.selector() == null || spec.selector().matchLabels() == null || spec.selector().matchLabels().isEmpty()) {
      return false;
    }
    for (Map.Entry<String, String> e : spec.selector().matchLabels().entrySet()) {
      if (!Objects.equals(labels.get(e.getKey()), e.getValue())) {
        return false;
      }
    }
    return true;
  }

  static boolean isReady(Pod pod) {
    if (pod.getMetadata().getDeletionTimestamp() != null || pod.getStatus() == null
        || pod.getStatus().getPodIP() == null || pod.getStatus().getPodIP().isEmpty()) {
      return false;
    }
    List<PodCondition> conditions = pod.getStatus().getConditions();
    return conditions != null && conditions.stream()
        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  /** One endpoint per active target port: {@code <pod>-rank-<i>} at {@code podIP:port}. */
  static List<Endpoint> endpointsOf(Pod pod, InferencePoolSpec spec) {
    List<Integer> ports = new ArrayList<>();
    for (Port p : spec.targetPorts()) {
      ports.add(p.number());
    }
    Set<Integer> active = new LinkedHashSet<>(ports);
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    if (annotations != null && annotations.containsKey(KubernetesDiscovery.ACTIVE_PORTS_ANNOTATION)) {
      active.clear();
      for (String s : annotations.get(KubernetesDiscovery.ACTIVE_PORTS_ANNOTATION).split(",")) {
        try {
          int port = Integer.parseInt(s.trim());
          if (ports.contains(port)) {
            active.add(port);
          }
        } catch (NumberFormatException ignored) {
          // GIE skips entries that are not port numbers
        }
      }
    }
    List<Endpoint> out = new ArrayList<>();
    Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
    for (int i = 0; i < ports.size(); i++) {
      if (active.contains(ports.get(i))) {
        out.add(new Endpoint(new EndpointId(pod.getMetadata().getNamespace(), pod.getMetadata().getName() + "-rank-"
            + i), pod.getStatus().getPodIP(), ports.get(i), labels));
      }
    }
    return out;
  }

}
