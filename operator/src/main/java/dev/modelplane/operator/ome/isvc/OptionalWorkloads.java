package dev.modelplane.operator.ome.isvc;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The objects of components whose workload kind comes from an optional project: a LeaderWorkerSet for multi-node
 * serving (with a Service selecting only this component's leaders) and a Knative Service for serverless serving.
 */
final class OptionalWorkloads {
  static final String LWS_API = "leaderworkerset.x-k8s.io/v1";
  static final String KNATIVE_API = "serving.knative.dev/v1";
  /** LWS's label on every pod of a group: the pod's index, 0 for the leader. */
  static final String WORKER_INDEX = "leaderworkerset.sigs.k8s.io/worker-index";
  /** The label OME gives leader pods (Ray's head node type). */
  static final String NODE_TYPE = "ray.io/node-type";
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private OptionalWorkloads() {
  }

  static String leaderWorkerSetName(String name) {
    return "lws-" + (name.length() > 50 ? name.substring(name.length() - 50) : name);
  }

  /**
   * LeaderWorkerSet {@code lws-<last 50 of N>}: {@code minReplicas} groups of one leader and {@code workerSize}
   * workers, leaders created first, pods of a group sharing one subdomain, the group recreated when one of its pods
   * restarts, rolled one group at a time; and Service N on this component's leaders only (OME's selects every head
   * pod of the namespace).
   */
  static List<HasMetadata> multiNode(ComponentPlan plan) {
    Map<String, String> leaderLabels = new HashMap<>(plan.pod().getMetadata().getLabels());
    leaderLabels.put(RawWorkloads.APP, plan.name());
    leaderLabels.put(NODE_TYPE, "head");
    PodTemplateSpec leader = withLabels(plan.pod(), leaderLabels, null);
    PodTemplateSpec worker = plan.worker() == null ? plan.pod() : plan.worker();
    Map<String, String> workerAnnotations = new HashMap<>(worker.getMetadata().getAnnotations() == null ? Map.of()
        : worker.getMetadata().getAnnotations());
    workerAnnotations.keySet().removeIf(k -> k.startsWith("prometheus.io/"));
    Map<String, String> workerLabels = new HashMap<>(worker.getMetadata().getLabels());
    workerLabels.put(RawWorkloads.APP, plan.name());
    workerLabels.put(NODE_TYPE, "worker");
    PodTemplateSpec workerTemplate = withLabels(worker, workerLabels, workerAnnotations);
    Map<String, Object> template = new LinkedHashMap<>();
    template.put("size", plan.workerSize() + 1);
    template.put("restartPolicy", "RecreateGroupOnPodRestart");
    template.put("leaderTemplate", JSON.convertValue(leader, Map.class));
    template.put("workerTemplate", JSON.convertValue(workerTemplate, Map.class));
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("replicas", Math.max(1, plan.minReplicas()));
    spec.put("startupPolicy", "LeaderCreated");
    spec.put("networkConfig", Map.of("subdomainPolicy", "Shared"));
    spec.put("rolloutStrategy", Map.of("type", "RollingUpdate", "rollingUpdateConfiguration",
        Map.of("maxUnavailable", 1, "maxSurge", 1)));
    spec.put("leaderWorkerTemplate", template);
    GenericKubernetesResource lws = new GenericKubernetesResourceBuilder().withApiVersion(LWS_API)
        .withKind("LeaderWorkerSet").withNewMetadata().withName(leaderWorkerSetName(plan.name()))
        .withLabels(plan.labels()).withAnnotations(plan.annotations()).endMetadata()
        .addToAdditionalProperties("spec", spec).build();
    return List.of(lws, RawWorkloads.service(plan, Map.of(RawWorkloads.APP, plan.name(), WORKER_INDEX, "0")));
  }

  /**
   * Knative Service N: the Knative pod autoscaler between {@code minReplicas} (1 when unset) and
   * {@code maxReplicas}, on {@code scaleMetric}/{@code scaleTarget}, with {@code containerConcurrency} and
   * {@code timeoutSeconds}; all traffic to the latest revision, or with {@code canaryTrafficPercent} that share to
   * the latest and the rest to {@code previousRevision} (tagged {@code prev}).
   *
   * @param previousRevision the last revision that took all traffic, or null
   */
  static GenericKubernetesResource serverless(ComponentPlan plan, String previousRevision) {
    Map<String, String> annotations = new LinkedHashMap<>(plan.pod().getMetadata().getAnnotations() == null
        ? Map.of() : plan.pod().getMetadata().getAnnotations());
    annotations.put("autoscaling.knative.dev/class", "kpa.autoscaling.knative.dev");
    Integer min = plan.settings().getMinReplicas();
    annotations.put("autoscaling.knative.dev/min-scale", Integer.toString(min == null ? 1 : min));
    if (plan.settings().getMaxReplicas() != null && plan.settings().getMaxReplicas() > 0) {
      annotations.put("autoscaling.knative.dev/max-scale", Integer.toString(plan.settings().getMaxReplicas()));
    }
    if (plan.settings().getScaleMetric() != null) {
      annotations.put("autoscaling.knative.dev/metric", plan.settings().getScaleMetric().toString()
          .toLowerCase(java.util.Locale.ROOT));
    }
    if (plan.settings().getScaleTarget() != null) {
      annotations.put("autoscaling.knative.dev/target", Integer.toString(plan.settings().getScaleTarget()));
    }
    Map<String, Object> podSpec = JSON.convertValue(plan.pod().getSpec(), Map.class);
    fitKnativeSecurity(podSpec);
    if (plan.settings().getContainerConcurrency() != null) {
      podSpec.put("containerConcurrency", plan.settings().getContainerConcurrency());
    }
    if (plan.settings().getTimeoutSeconds() != null) {
      podSpec.put("timeoutSeconds", plan.settings().getTimeoutSeconds());
    }
    Map<String, Object> template = new LinkedHashMap<>();
    template.put("metadata", Map.of("labels", plan.pod().getMetadata().getLabels(), "annotations", annotations));
    template.put("spec", podSpec);
    Long canary = plan.settings().getCanaryTrafficPercent();
    List<Map<String, Object>> traffic = canary == null || previousRevision == null
        ? List.of(Map.of("latestRevision", true, "percent", 100))
        : List.of(Map.of("latestRevision", true, "percent", canary),
            Map.of("revisionName", previousRevision, "tag", "prev", "percent", 100 - canary));
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("template", template);
    spec.put("traffic", traffic);
    return new GenericKubernetesResourceBuilder().withApiVersion(KNATIVE_API).withKind("Service")
        .withNewMetadata().withName(plan.name()).withLabels(plan.labels()).withAnnotations(plan.annotations())
        .endMetadata().addToAdditionalProperties("spec", spec).build();
  }

  private static PodTemplateSpec withLabels(PodTemplateSpec pod, Map<String, String> labels,
      Map<String, String> annotations) {
    PodTemplateSpec copy = JSON.convertValue(pod, PodTemplateSpec.class);
    copy.getMetadata().setLabels(labels);
    if (annotations != null) {
      copy.getMetadata().setAnnotations(annotations);
    }
    return copy;
  }

  /** Container security fields Knative's webhook accepts without a feature flag. */
  private static final List<String> KNATIVE_CONTAINER_SECURITY = List.of("runAsUser", "runAsNonRoot",
      "readOnlyRootFilesystem", "capabilities");

  /**
   * Fits a revision template's security contexts to what Knative Serving's webhook accepts by default: no pod-level
   * security context (only with its {@code kubernetes.podspec-securitycontext} feature), and per container only the
   * user, non-root, read-only root and dropped capabilities — privilege escalation and seccomp are what Knative's own
   * {@code secure-pod-defaults} sets. The pod's user and non-root setting move to each container.
   */
  @SuppressWarnings("unchecked")
  static void fitKnativeSecurity(Map<String, Object> podSpec) {
    Map<String, Object> pod = (Map<String, Object>) podSpec.remove("securityContext");
    for (String key : List.of("containers", "initContainers")) {
      List<Map<String, Object>> containers = (List<Map<String, Object>>) podSpec.get(key);
      if (containers == null) {
        continue;
      }
      for (Map<String, Object> container : containers) {
        Map<String, Object> given = (Map<String, Object>) container.get("securityContext");
        Map<String, Object> kept = new LinkedHashMap<>();
        for (String field : KNATIVE_CONTAINER_SECURITY) {
          if (given != null && given.get(field) != null) {
            kept.put(field, given.get(field));
          } else if (pod != null && pod.get(field) != null) {
            kept.put(field, pod.get(field));
          }
        }
        if (kept.get("capabilities") instanceof Map<?, ?> caps) {
          kept.put("capabilities", caps.get("drop") == null ? Map.of() : Map.of("drop", caps.get("drop")));
        }
        if (kept.isEmpty()) {
          container.remove("securityContext");
        } else {
          container.put("securityContext", kept);
        }
      }
    }
  }
}
