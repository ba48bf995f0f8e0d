package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.DisruptionSpec;
import dev.modelplane.api.llmkube.v1alpha1.InferenceServiceSpec;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code disruption.protectStartup}: each inference pod carries {@code karpenter.sh/do-not-disrupt: "true"} until it
 * is Ready, so node consolidation does not evict a pod that is still downloading or loading its model. The
 * annotation goes on the pods, not the pod template (changing the template when the service turns Ready would roll
 * every pod), and it is tracked with a marker annotation so only what the controller added is ever removed. A value
 * the pod already has from the template ({@code podAnnotations} or {@code protectAlways}) is left alone.
 */
public final class StartupProtection {
  /** Marks pods whose do-not-disrupt annotation this controller added. */
  public static final String MARKER = "inference.llmkube.dev/startup-protection";
  private static final Logger LOG = LoggerFactory.getLogger(StartupProtection.class);

  /** Add ({@code protect}) or remove the annotation on one pod. */
  public record Change(String pod, boolean protect) {
  }

  private StartupProtection() {
  }

  /** Whether startup protection applies: on by default, off when disabled or when protectAlways covers it. */
  public static boolean enabled(InferenceServiceSpec spec) {
    DisruptionSpec d = spec.disruption();
    if (d != null && Boolean.TRUE.equals(d.protectAlways())) {
      return false;
    }
    return d == null || d.protectStartup() == null || d.protectStartup();
  }

  /** The annotation changes the pods need now. */
  public static List<Change> changes(InferenceServiceSpec spec, Collection<Pod> pods) {
    boolean on = enabled(spec);
    List<Change> out = new ArrayList<>();
    for (Pod pod : pods) {
      if (pod.getMetadata().getDeletionTimestamp() != null || pod.getStatus() != null
          && ("Succeeded".equals(pod.getStatus().getPhase()) || "Failed".equals(pod.getStatus().getPhase()))) {
        continue;
      }
      Map<String, String> annotations = pod.getMetadata().getAnnotations() == null ? Map.of()
          : pod.getMetadata().getAnnotations();
      boolean marked = "true".equals(annotations.get(MARKER));
      boolean fromTemplate = annotations.containsKey(IsvcDeploymentBuilder.DO_NOT_DISRUPT) && !marked;
      boolean ready = ready(pod);
      if (on && !ready && !marked && !fromTemplate) {
        out.add(new Change(pod.getMetadata().getName(), true));
      } else if (marked && (!on || ready)) {
        out.add(new Change(pod.getMetadata().getName(), false));
      }
    }
    return out;
  }

  static boolean ready(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return false;
    }
    for (PodCondition c : pod.getStatus().getConditions()) {
      if ("Ready".equals(c.getType())) {
        return "True".equals(c.getStatus());
      }
    }
    return false;
  }

  /** Applies the changes with merge patches; best effort (a pod may be gone already). */
  public static void apply(KubernetesClient client, String namespace, List<Change> changes) {
    for (Change c : changes) {
      String value = c.protect() ? "\"true\"" : "null";
      String patch = "{\"metadata\":{\"annotations\":{\"" + IsvcDeploymentBuilder.DO_NOT_DISRUPT + "\":" + value
          + ",\"" + MARKER + "\":" + value + "}}}";
      try {
        client.pods().inNamespace(namespace).withName(c.pod()).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
        LOG.info("startup protection pod={}/{} protect={}", namespace, c.pod(), c.protect());
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404) {
          LOG.warn("startup protection failed pod={}/{} error=\"{}\"", namespace, c.pod(), e.getMessage());
        }
      }
    }
  }
}
