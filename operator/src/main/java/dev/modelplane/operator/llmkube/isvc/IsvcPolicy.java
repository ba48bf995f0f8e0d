package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.common.WorkloadPolicy;
import dev.modelplane.operator.llmkube.ModelStaging;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The {@link WorkloadPolicy} applied to an InferenceService's Deployment and Service, with the fields named as the
 * InferenceService spells them ({@code spec.securityContext}, {@code spec.podSecurityContext},
 * {@code spec.extraVolumes}, {@code spec.podAnnotations}, {@code spec.endpoint.type}). The hostPath volumes of a
 * Model's staged directory on the node ({@link ModelStagingBuilder}) are the operator's own and mounted read-only,
 * but only when the directory actually mounted is strictly below an allowed root ({@code --allowed-host-path-roots}):
 * it is checked again here, from the Model spec the pod is built from, so neither a stale Model status nor a file
 * placed directly in a root (whose directory is the whole root, other tenants' files included) gets it mounted.
 */
final class IsvcPolicy {
  private IsvcPolicy() {
  }

  /** What the policy refuses in {@code objects}, as fatal problems; none in a namespace that lifts it. */
  static List<FieldProblem> refusals(ServingPlan plan, IsvcObjects objects, KubernetesClient client) {
    List<WorkloadPolicy.Violation> violations = violations(plan, objects);
    if (violations.isEmpty() || WorkloadPolicy.lifted(client, plan.namespace())) {
      return List.of();
    }
    return violations.stream().map(v -> FieldProblem.fatal(v.field(), WorkloadPolicy.REASON, v.message())).toList();
  }

  /** The violations of the objects, whatever the namespace. */
  static List<WorkloadPolicy.Violation> violations(ServingPlan plan, IsvcObjects objects) {
    Set<WorkloadPolicy.OperatorHostPath> ours = new HashSet<>();
    List<WorkloadPolicy.Violation> out = new ArrayList<>();
    for (Volume v : ModelStagingBuilder.of(plan).volumes()) {
      if (v.getHostPath() == null) {
        continue;
      }
      boolean draft = v.getName().equals(ModelStaging.DRAFT_HOST_VOLUME);
      Model model = draft ? plan.draft() : plan.model();
      String dir = v.getHostPath().getPath();
      // Named once, as the Model's directory (not again as a user's hostPath volume); mounted read-only either way.
      ours.add(new WorkloadPolicy.OperatorHostPath(v.getName(), dir));
      if (!belowRoot(dir, plan.settings().allowedHostPathRoots())) {
        out.add(new WorkloadPolicy.Violation(draft ? ModelGates.DRAFT_REF : ModelGates.MODEL_REF, "Model "
            + model.getMetadata().getName() + " spec.source " + model.getSpec().source() + " would mount the node "
            + "directory " + dir + ", which is not strictly below an allowed host path root (operator flag "
            + "--allowed-host-path-roots: " + (plan.settings().allowedHostPathRoots().isEmpty() ? "none"
                : String.join(",", plan.settings().allowedHostPathRoots()))
            + "); put the file in a directory of its own under a root"));
      }
    }
    PodTemplateSpec template = objects.deployment().getSpec().getTemplate();
    List<Container> containers = template.getSpec().getContainers();
    String server = containers == null || containers.isEmpty() ? "" : containers.getFirst().getName();
    String c = "spec.containers[" + server + "]";
    UnaryOperator<String> where = p -> {
      if (p.startsWith(c + ".securityContext")) {
        return "spec" + p.substring(c.length());
      }
      if (p.startsWith(c + ".volumeMounts")) {
        return "spec.extraVolumeMounts" + p.substring((c + ".volumeMounts").length());
      }
      if (p.startsWith("spec.securityContext")) {
        return "spec.podSecurityContext" + p.substring("spec.securityContext".length());
      }
      if (p.startsWith("spec.volumes")) {
        return "spec.extraVolumes" + p.substring("spec.volumes".length());
      }
      if (p.startsWith("metadata.annotations")) {
        return "spec.podAnnotations" + p.substring("metadata.annotations".length());
      }
      return "Deployment " + objects.deployment().getMetadata().getName() + " spec.template." + p;
    };
    out.addAll(WorkloadPolicy.pod(template, where, ours));
    out.addAll(WorkloadPolicy.service(objects.service(), p -> p.equals("spec.type") ? "spec.endpoint.type"
        : "Service " + objects.service().getMetadata().getName() + " " + p));
    return out;
  }

  /**
   * Whether a node directory is strictly below one of the roots: {@code /mnt/models/a} is below {@code /mnt/models},
   * {@code /mnt/models} itself is not (mounting it would expose every file under the root).
   */
  static boolean belowRoot(String dir, List<String> roots) {
    if (dir == null || dir.isEmpty() || dir.contains("/../") || dir.endsWith("/..")) {
      return false;
    }
    String d = dir.endsWith("/") ? dir.substring(0, dir.length() - 1) : dir;
    for (String root : roots) {
      String r = root.endsWith("/") ? root : root + "/";
      if (d.startsWith(r) && d.length() > r.length()) {
        return true;
      }
    }
    return false;
  }
}
