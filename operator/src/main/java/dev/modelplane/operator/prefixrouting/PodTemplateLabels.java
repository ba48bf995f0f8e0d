package dev.modelplane.operator.prefixrouting;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The labels of the pods rendered workloads run, as a NetworkPolicy's selectors see them: a Deployment's template, a
 * LeaderWorkerSet's leader and worker templates, a Knative Service's revision template.
 */
public final class PodTemplateLabels {
  private PodTemplateLabels() {
  }

  /** One label set per pod template among {@code objects}. */
  public static List<Map<String, String>> of(List<? extends HasMetadata> objects) {
    List<Map<String, String>> out = new ArrayList<>();
    for (HasMetadata object : objects) {
      if (object instanceof Deployment d && d.getSpec() != null && d.getSpec().getTemplate() != null) {
        var meta = d.getSpec().getTemplate().getMetadata();
        out.add(meta == null || meta.getLabels() == null ? Map.of() : meta.getLabels());
      } else if (object instanceof GenericKubernetesResource r
          && r.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec) {
        switch (r.getKind()) {
          case "LeaderWorkerSet" -> {
            if (spec.get("leaderWorkerTemplate") instanceof Map<?, ?> lws) {
              add(out, lws.get("leaderTemplate"));
              add(out, lws.get("workerTemplate"));
            }
          }
          case "Service" -> add(out, spec.get("template"));
          default -> {
          }
        }
      }
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static void add(List<Map<String, String>> out, Object template) {
    if (template instanceof Map<?, ?> t && t.get("metadata") instanceof Map<?, ?> meta) {
      out.add(meta.get("labels") instanceof Map<?, ?> labels ? (Map<String, String>) labels : Map.of());
    }
  }
}
