package dev.modelplane.operator.ome.isvc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.api.ome.v1beta1.ServingRuntimeSpec;
import dev.modelplane.operator.common.WorkloadPolicy;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The {@link WorkloadPolicy} applied to an OME InferenceService's plan: every component's pod as it would be applied
 * (the InferenceService's component merged over the runtime's template, so a namespaced ServingRuntime, which its
 * tenant writes, is checked as well as the service), and every Service, whose type and load-balancer IP the
 * InferenceService's annotations choose. A ClusterServingRuntime is the administrators': what its own template for
 * the component sets (the same field with the same value in {@code engineConfig} for {@code spec.engine}, e.g. the
 * {@code hostNetwork} of an RDMA runtime) is not refused; publishing such a runtime lets every namespace use it. Its
 * top-level pod fields count for the engine and the decoder, which they reach ({@link RuntimeTemplates}), and a
 * hostPath volume it gives may be mounted writable only where the runtime itself mounts it so. Fields are named under the component
 * ({@code spec.engine.hostNetwork}, {@code spec.engine.containers[ome-container].securityContext.privileged}, the
 * runner being the container of that name) or by the annotation. The hostPath volumes the model wiring added are
 * the operator's own.
 */
final class OmePolicy {
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private OmePolicy() {
  }

  /** The violations of the plan, whatever the namespace. */
  static List<WorkloadPolicy.Violation> violations(OmePlan plan) {
    List<WorkloadPolicy.Violation> out = new ArrayList<>();
    for (ComponentPlan c : plan.components()) {
      out.addAll(pod(c.pod(), "spec." + c.component(), c));
      out.addAll(pod(c.worker(), "spec." + c.component() + ".worker", c));
      if (plan.clusterRuntime() != null) {
        out.addAll(writableHostPathMounts(c.pod(), "spec." + c.component(), c.operatorHostPaths()));
        out.addAll(writableHostPathMounts(c.worker(), "spec." + c.component() + ".worker", c.operatorHostPaths()));
      }
    }
    for (HasMetadata object : plan.objects()) {
      if (object instanceof Service service) {
        out.addAll(WorkloadPolicy.service(service, p -> switch (p) {
          case "spec.type" -> "metadata.annotations[" + RawWorkloads.SERVICE_TYPE + "]";
          case "spec.loadBalancerIP" -> "metadata.annotations[" + RawWorkloads.LOAD_BALANCER_IP + "]";
          default -> "Service " + service.getMetadata().getName() + " " + p;
        }));
      }
    }
    if (plan.clusterRuntime() != null) {
      Set<WorkloadPolicy.Violation> trusted = new HashSet<>(runtimeViolations(plan.clusterRuntime()));
      out.removeIf(trusted::contains);
    }
    return out.stream().distinct().toList();
  }

  /**
   * What the policy would refuse in a runtime's own templates, named as in a service using it: only what the merge
   * puts into that component's pods, i.e. the component's own config ({@code engineConfig} for {@code spec.engine},
   * with its leader and worker) over the runtime's top-level pod fields for the engine and decoder
   * ({@link RuntimeTemplates}). The top-level {@code containers[*].securityContext} and the like are not merged into
   * any component (only their resources are), so they vouch for nothing.
   */
  static List<WorkloadPolicy.Violation> runtimeViolations(ServingRuntimeSpec runtime) {
    JsonNode top = JSON.convertValue(runtime, JsonNode.class);
    JsonNode engine = RuntimeTemplates.engine(runtime) == null ? null
        : JSON.convertValue(RuntimeTemplates.engine(runtime), JsonNode.class);
    JsonNode decoder = RuntimeTemplates.decoder(runtime) == null ? null
        : JSON.convertValue(RuntimeTemplates.decoder(runtime), JsonNode.class);
    List<WorkloadPolicy.Violation> out = new ArrayList<>();
    for (Object[] c : new Object[][] {{"engine", engine}, {"decoder", decoder},
        {"router", top.get("routerConfig")}}) {
      String prefix = "spec." + c[0];
      JsonNode config = (JsonNode) c[1];
      out.addAll(template(config, prefix));
      if (config != null) {
        out.addAll(template(config.get("leader"), prefix));
        if (config.get("worker") != null && config instanceof ObjectNode own) {
          // Worker pods take the component's pod fields under their own, as the merge builds them.
          ObjectNode base = own.deepCopy();
          base.remove(List.of("leader", "worker", "runner"));
          out.addAll(template(StrategicMerge.merge(base, config.get("worker")), prefix + ".worker"));
        }
      }
    }
    return out;
  }

  /** A runtime template (pod fields, its runner, its annotations) as a pod template, checked. */
  private static List<WorkloadPolicy.Violation> template(JsonNode node, String prefix) {
    if (!(node instanceof ObjectNode object)) {
      return List.of();
    }
    ObjectNode pod = object.deepCopy();
    ArrayNode containers = pod.get("containers") instanceof ArrayNode a ? a : pod.putArray("containers");
    if (pod.get("runner") instanceof ObjectNode runner) {
      containers.add(runner);
    }
    ObjectNode template = JSON.convertValue(Map.of(), ObjectNode.class);
    template.putObject("metadata").set("annotations", pod.get("annotations"));
    for (String key : List.of("runner", "leader", "worker", "annotations", "labels", "workers", "engineConfig",
        "decoderConfig", "routerConfig", "supportedModelFormats")) {
      pod.remove(key);
    }
    template.set("spec", pod);
    PodTemplateSpec t = JSON.convertValue(template, PodTemplateSpec.class);
    List<WorkloadPolicy.Violation> out = new ArrayList<>(pod(t, prefix, Set.of()));
    out.addAll(writableHostPathMounts(t, prefix, Set.of()));
    return out;
  }

  /**
   * Every writable mount of a hostPath volume (other than the operator's own, which {@link WorkloadPolicy} checks).
   * In a ClusterServingRuntime's templates these are the administrators' and vouch for the same mount in a service's
   * pod; any other writable mount of such a volume (a container or mount the tenant added) is refused: a runtime's
   * hostPath is shared by every namespace using the runtime.
   */
  static List<WorkloadPolicy.Violation> writableHostPathMounts(PodTemplateSpec template, String component,
      Set<WorkloadPolicy.OperatorHostPath> ours) {
    List<WorkloadPolicy.Violation> out = new ArrayList<>();
    if (template == null || template.getSpec() == null || template.getSpec().getVolumes() == null) {
      return out;
    }
    Set<String> hostVolumes = new HashSet<>();
    template.getSpec().getVolumes().stream().filter(v -> v.getHostPath() != null && !ours.contains(
        new WorkloadPolicy.OperatorHostPath(v.getName(), v.getHostPath().getPath())))
        .forEach(v -> hostVolumes.add(v.getName()));
    List<io.fabric8.kubernetes.api.model.Container> containers = new ArrayList<>();
    Optional.ofNullable(template.getSpec().getInitContainers()).ifPresent(containers::addAll);
    Optional.ofNullable(template.getSpec().getContainers()).ifPresent(containers::addAll);
    for (var container : containers) {
      for (VolumeMount m : container.getVolumeMounts() == null ? List.<VolumeMount>of()
          : container.getVolumeMounts()) {
        if (hostVolumes.contains(m.getName()) && !Boolean.TRUE.equals(m.getReadOnly())) {
          out.add(new WorkloadPolicy.Violation(component + ".containers[" + container.getName() + "].volumeMounts["
              + m.getMountPath() + "]", "the runtime's hostPath volume " + m.getName() + " may only be mounted "
              + "read-only here, as the ClusterServingRuntime does not mount it writable in this container (label "
              + "the namespace " + WorkloadPolicy.LABEL + "=" + WorkloadPolicy.PRIVILEGED + " to allow it)"));
        }
      }
    }
    return out;
  }

  private static List<WorkloadPolicy.Violation> pod(PodTemplateSpec template, String component, ComponentPlan c) {
    return template == null ? List.of() : pod(template, component, c.operatorHostPaths());
  }

  private static List<WorkloadPolicy.Violation> pod(PodTemplateSpec template, String component,
      Set<WorkloadPolicy.OperatorHostPath> ours) {
    UnaryOperator<String> where = p -> p.startsWith("spec.") ? component + "." + p.substring("spec.".length())
        : p.startsWith("metadata.annotations") ? component + ".annotations"
            + p.substring("metadata.annotations".length()) : component + "." + p;
    return WorkloadPolicy.pod(template, where, ours);
  }
}
