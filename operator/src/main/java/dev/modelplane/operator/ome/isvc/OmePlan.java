package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.ServingRuntimeSpec;
import dev.modelplane.operator.prefixrouting.PrecisePrefixStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/**
 * What an InferenceService should have in the cluster.
 *
 * @param runtime how the runtime was chosen (the RuntimeSelected message)
 * @param components the declared components, engine first
 * @param objects every object to apply
 * @param entry the component the service's own Service sends traffic to, or null for a virtual deployment
 * @param virtual whether the service is a VirtualDeployment (no workloads)
 * @param clusterRuntime the chosen runtime's spec when it is a ClusterServingRuntime (the administrators', whose
 *     own pod fields the {@link OmePolicy} trusts), else null
 * @param precisePrefix how precise prefix-cache routing was rendered, or null when the router does not use it
 */
public record OmePlan(String runtime, List<ComponentPlan> components, List<HasMetadata> objects, ComponentPlan entry,
    boolean virtual, ServingRuntimeSpec clusterRuntime, PrecisePrefixStatus precisePrefix) {
  public OmePlan {
    components = List.copyOf(components);
    objects = List.copyOf(objects);
  }

  public OmePlan(String runtime, List<ComponentPlan> components, List<HasMetadata> objects, ComponentPlan entry,
      boolean virtual) {
    this(runtime, components, objects, entry, virtual, null, null);
  }
}
