package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.common.WorkloadPolicy;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
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
 * Model's staged directory on the node ({@link ModelStagingBuilder}) are the operator's own: the Model reconciler
 * allowed their path ({@code --allowed-host-path-roots}), and they are mounted read-only.
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
    ModelStagingBuilder.of(plan).volumes().stream().filter(v -> v.getHostPath() != null)
        .forEach(v -> ours.add(new WorkloadPolicy.OperatorHostPath(v.getName(), v.getHostPath().getPath())));
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
    List<WorkloadPolicy.Violation> out = new ArrayList<>(WorkloadPolicy.pod(template, where, ours));
    out.addAll(WorkloadPolicy.service(objects.service(), p -> p.equals("spec.type") ? "spec.endpoint.type"
        : "Service " + objects.service().getMetadata().getName() + " " + p));
    return out;
  }
}
