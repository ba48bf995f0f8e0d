package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.ComponentExtensionSpec;
import dev.modelplane.api.ome.v1beta1.KedaConfig;
import dev.modelplane.operator.common.WorkloadPolicy;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.Map;
import java.util.Set;

/**
 * One component of an InferenceService, ready to become objects: merged, its mode decided, its model wired in.
 *
 * @param isvc the InferenceService's name
 * @param component {@code engine}, {@code decoder} or {@code router}
 * @param name the component's object name (N = {@code <isvc>-<component>}, hashed when longer than 63)
 * @param mode how it is deployed
 * @param pod the pod template (for multi-node, the leader's)
 * @param worker the worker pod template of a multi-node component, or null
 * @param workerSize worker pods per replica
 * @param settings replicas, scaling, disruption budget and rollout settings
 * @param labels labels of the component's objects
 * @param annotations annotations of the component's objects
 * @param serviceAnnotations the InferenceService's own annotations (autoscaler class, service type, KEDA)
 * @param keda KEDA settings: the component's own, else the InferenceService's, or null
 * @param defaultMaxReplicas the maximum when {@code maxReplicas} is unset (3, or 2 for a router)
 * @param servingPort the port the serving container listens on
 * @param mainContainer the name of the serving container (or the router's)
 * @param operatorHostPaths the hostPath volumes the model wiring added (the model's and an adapter's directories on
 *     the node), which the {@link WorkloadPolicy} allows; a user's hostPath volume is not among them
 */
public record ComponentPlan(String isvc, String component, String name, ComponentModes.Mode mode,
    PodTemplateSpec pod, PodTemplateSpec worker, int workerSize, ComponentExtensionSpec settings,
    Map<String, String> labels, Map<String, String> annotations, Map<String, String> serviceAnnotations,
    KedaConfig keda, int defaultMaxReplicas, int servingPort, String mainContainer,
    Set<WorkloadPolicy.OperatorHostPath> operatorHostPaths) {
  public ComponentPlan {
    operatorHostPaths = operatorHostPaths == null ? Set.of() : Set.copyOf(operatorHostPaths);
    labels = Map.copyOf(labels);
    annotations = Map.copyOf(annotations);
    serviceAnnotations = serviceAnnotations == null ? Map.of() : Map.copyOf(serviceAnnotations);
  }

  /** Fewest replicas: {@code minReplicas}, 1 when unset. */
  int minReplicas() {
    return settings.getMinReplicas() == null ? 1 : settings.getMinReplicas();
  }

  /** Most replicas: {@code maxReplicas} when set and positive, else the default; never below the minimum. */
  int maxReplicas() {
    int max = settings.getMaxReplicas() == null || settings.getMaxReplicas() == 0 ? defaultMaxReplicas
        : settings.getMaxReplicas();
    return Math.max(max, Math.max(1, minReplicas()));
  }
}
