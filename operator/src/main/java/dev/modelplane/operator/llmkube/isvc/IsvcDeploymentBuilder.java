package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.InferenceResources;
import dev.modelplane.api.llmkube.v1alpha1.InferenceServiceSpec;
import dev.modelplane.operator.common.SecurityDefaults;
import dev.modelplane.operator.llmkube.runtime.GpuPlan;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceClaim;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Deployment of an InferenceService. Pure: {@code (plan, live replica count) → Deployment}.
 *
 * <ul>
 *   <li>Selector: only {@code app} and {@code inference.llmkube.dev/service}, so it never has to change.</li>
 *   <li>Replicas: {@code spec.replicas} (0 while suspended); while an HPA manages the service, the live count is
 *       kept.</li>
 *   <li>Strategy Recreate when the pod has GPUs (a rolling update would need twice the GPUs).</li>
 *   <li>Pod labels: {@code podLabels} with the operator's keys winning; annotations: {@code podAnnotations}.</li>
 *   <li>Security: the user's pod and container contexts merged over the operator's restricted defaults
 *       ({@link SecurityDefaults#harden}); the server gets a writable home.</li>
 * </ul>
 */
public final class IsvcDeploymentBuilder {
  /** Pod annotation with the source fingerprint of a {@code refreshPolicy: OnChange} Model. */
  public static final String SOURCE_FINGERPRINT = "inference.llmkube.dev/source-fingerprint";
  /** Annotations for Prometheus scraping ({@code --emit-scrape-annotations}). */
  static final String SCRAPE = "prometheus.io/scrape";
  static final String SCRAPE_PORT = "prometheus.io/port";
  static final String SCRAPE_PATH = "prometheus.io/path";
  /** Karpenter's (and the cluster autoscaler's) opt-out of voluntary disruption. */
  static final String DO_NOT_DISRUPT = "karpenter.sh/do-not-disrupt";

  private IsvcDeploymentBuilder() {
  }

  /**
   * The desired Deployment.
   *
   * @param liveReplicas the existing Deployment's {@code spec.replicas}, or null when there is none
   */
  public static Deployment build(ServingPlan plan, Integer liveReplicas) {
    Deployment deployment = new DeploymentBuilder()
        .withNewMetadata()
          .withName(plan.name())
          .withNamespace(plan.namespace())
          .withLabels(plan.labels())
        .endMetadata()
        .withNewSpec()
          .withReplicas(replicas(plan, liveReplicas))
          .withRevisionHistoryLimit(plan.spec().revisionHistoryLimit())
          .withNewSelector().withMatchLabels(plan.selector()).endSelector()
          .withNewStrategy().withType(plan.gpu().present() ? "Recreate" : "RollingUpdate").endStrategy()
          .withNewTemplate()
            .withNewMetadata()
              .withLabels(podLabels(plan))
              .withAnnotations(podAnnotations(plan))
            .endMetadata()
            .withSpec(podSpec(plan))
          .endTemplate()
        .endSpec()
        .build();
    if (plan.spec().rolloutPolicy() != null && Boolean.TRUE.equals(plan.spec().rolloutPolicy().waitForIdle())) {
      deployment.getMetadata().setAnnotations(new LinkedHashMap<>(Map.of(RolloutGate.TEMPLATE_HASH,
          RolloutGate.templateHash(deployment.getSpec().getTemplate()))));
    }
    return deployment;
  }

  /**
   * Replicas to write: 0 and manual counts as given, the live count while an HPA manages the service — unless that
   * count is 0, which only the operator sets (stopped or suspended before), never an HPA.
   */
  static int replicas(ServingPlan plan, Integer liveReplicas) {
    if (plan.autoscaling() && liveReplicas != null && liveReplicas > 0) {
      return liveReplicas;
    }
    return plan.effectiveReplicas();
  }

  static Map<String, String> podLabels(ServingPlan plan) {
    Map<String, String> labels = new LinkedHashMap<>();
    if (plan.spec().podLabels() != null) {
      labels.putAll(plan.spec().podLabels());
    }
    labels.putAll(plan.labels());
    return labels;
  }

  static Map<String, String> podAnnotations(ServingPlan plan) {
    Map<String, String> annotations = new LinkedHashMap<>();
    if (plan.settings().emitScrapeAnnotations()) {
      annotations.put(SCRAPE, "true");
      annotations.put(SCRAPE_PORT, Integer.toString(plan.containerPort()));
      annotations.put(SCRAPE_PATH, "/metrics");
    }
    if (plan.spec().disruption() != null && Boolean.TRUE.equals(plan.spec().disruption().protectAlways())) {
      annotations.put(DO_NOT_DISRUPT, "true");
    }
    // A refreshPolicy OnChange Model whose source changed rolls the pods, whose downloader then fetches it again.
    plan.downloads().stream().filter(d -> d.refreshToken() != null).findFirst()
        .ifPresent(d -> annotations.put(SOURCE_FINGERPRINT, d.refreshToken()));
    if (plan.spec().podAnnotations() != null) {
      annotations.putAll(plan.spec().podAnnotations());
    }
    return annotations;
  }

  static PodSpec podSpec(ServingPlan plan) {
    InferenceServiceSpec spec = plan.spec();
    ModelStagingBuilder staging = ModelStagingBuilder.of(plan);
    Container server = serverContainer(plan, staging);
    PodSpec pod = new PodSpecBuilder()
        .withInitContainers(staging.initContainers())
        .withContainers(server)
        .withVolumes(concat(staging.volumes(), spec.extraVolumes()))
        .withImagePullSecrets(orEmpty(spec.imagePullSecrets()))
        .withNodeSelector(spec.nodeSelector() == null ? Map.of() : spec.nodeSelector())
        .withTolerations(tolerations(plan))
        .withAffinity(spec.affinity())
        .withTopologySpreadConstraints(orEmpty(spec.topologySpreadConstraints()))
        .withRuntimeClassName(spec.runtimeClassName())
        .withPriorityClassName(plan.priorityClassName())
        .withSecurityContext(spec.podSecurityContext() == null ? null
            : new PodSecurityContextBuilder(spec.podSecurityContext()).build())
        .withEnableServiceLinks(plan.renderer().serviceLinks() ? null : false)
        .withResourceClaims(plan.gpu().claims())
        .build();
    return plan.settings().securityDefaults().harden(pod, Set.of(server.getName()));
  }

  static Container serverContainer(ServingPlan plan, ModelStagingBuilder staging) {
    InferenceServiceSpec spec = plan.spec();
    return new ContainerBuilder(plan.renderer().container(plan.runtimeInput()))
        .withResources(resources(spec.resources(), plan.gpu()))
        .withVolumeMounts(concat(staging.serverMounts(), spec.extraVolumeMounts()))
        .withSecurityContext(spec.securityContext() == null ? null
            : new SecurityContextBuilder(spec.securityContext()).build())
        .build();
  }

  static io.fabric8.kubernetes.api.model.ResourceRequirements resources(InferenceResources resources, GpuPlan gpu) {
    Map<String, Quantity> requests = new LinkedHashMap<>();
    Map<String, Quantity> limits = new LinkedHashMap<>();
    if (resources != null && resources.cpu() != null) {
      requests.put("cpu", new Quantity(resources.cpu()));
    }
    String memory = resources == null ? null : resources.hostMemory() != null ? resources.hostMemory()
        : resources.memory();
    if (memory != null) {
      requests.put("memory", new Quantity(memory));
    }
    if (gpu.extendedResource()) {
      limits.put(gpu.resourceName(), new Quantity(Integer.toString(gpu.count())));
    }
    if (resources != null && resources.ephemeralStorage() != null) {
      requests.put("ephemeral-storage", new Quantity(resources.ephemeralStorage()));
      limits.put("ephemeral-storage", new Quantity(resources.ephemeralStorage()));
    }
    List<ResourceClaim> claims = gpu.claims().stream().map(c -> new ResourceClaim(c.getName(), null)).toList();
    return new ResourceRequirementsBuilder()
        .withRequests(requests)
        .withLimits(limits)
        .withClaims(claims)
        .build();
  }

  /** The GPU toleration (when the pod has GPUs), then {@code spec.tolerations}. */
  static List<Toleration> tolerations(ServingPlan plan) {
    List<Toleration> tolerations = new ArrayList<>();
    if (plan.gpu().extendedResource()) {
      tolerations.add(new TolerationBuilder().withKey(plan.gpu().tolerationKey()).withOperator("Equal")
          .withValue("present").withEffect("NoSchedule").build());
    }
    if (plan.spec().tolerations() != null) {
      tolerations.addAll(plan.spec().tolerations());
    }
    return tolerations;
  }

  private static <T> List<T> concat(List<T> first, List<T> second) {
    List<T> all = new ArrayList<>(first);
    if (second != null) {
      all.addAll(second);
    }
    return all;
  }

  private static <T> List<T> orEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }
}
