package dev.modelplane.operator.otterscale.modelservice;

import dev.modelplane.operator.common.WorkloadPolicy;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The {@link WorkloadPolicy} applied to a ModelService's objects. Its spec gives no security context, volume or host
 * field, but its roles' {@code annotations} reach the pod template (an AppArmor annotation could unconfine a
 * container), so the Deployments and Services it would apply are checked like every other workload; the fields of a
 * role's pod are named under the role ({@code spec.decode.annotations[...]}).
 */
final class ModelServicePolicy {
  private ModelServicePolicy() {
  }

  /** The violations of the objects, whatever the namespace. */
  static List<WorkloadPolicy.Violation> violations(ModelServiceNames names, List<HasMetadata> objects) {
    List<WorkloadPolicy.Violation> out = new ArrayList<>();
    for (HasMetadata object : objects) {
      String name = object.getMetadata().getName();
      if (object instanceof Deployment d && d.getSpec() != null) {
        String prefix = name.equals(names.serving(ModelServiceNames.DECODE)) ? "spec.decode"
            : name.equals(names.serving(ModelServiceNames.PREFILL)) ? "spec.prefill" : "Deployment " + name;
        out.addAll(WorkloadPolicy.pod(d.getSpec().getTemplate(), p -> p.startsWith("metadata.annotations")
            ? prefix + ".annotations" + p.substring("metadata.annotations".length())
            : prefix + " pod " + p, Set.of()));
      } else if (object instanceof Service s) {
        out.addAll(WorkloadPolicy.service(s, p -> "Service " + name + " " + p));
      }
    }
    return out;
  }
}
