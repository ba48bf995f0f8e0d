package dev.modelplane.operator.otterscale.modelservice;

import dev.modelplane.api.otterscale.v1alpha1.EndpointPickerSpec;
import dev.modelplane.api.otterscale.v1alpha1.ModelService;
import dev.modelplane.operator.ModelServiceSettings;
import dev.modelplane.operator.ProjectVersion;
import dev.modelplane.operator.common.SecurityDefaults;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The endpoint picker of a ModelService and what it needs, as OtterScale builds them: ServiceAccount, ConfigMap,
 * Deployment (Recreate, GIE's flags, gRPC health probes on 9003), Service, Role and RoleBinding, and — with
 * {@code spec.inferencePool}, metrics authentication and the operator's own picker image — a ClusterRoleBinding to
 * the installed ClusterRole {@value ModelServiceNames#PICKER_CLUSTER_ROLE} for token and access reviews. Unlike
 * OtterScale, no ClusterRole and no service-account token Secret are created. The picker exists without
 * {@code spec.inferencePool} too, from the defaults. When its image is modelplane's, the container runs
 * {@code router} with the same GIE flags.
 */
final class PickerBuilder {
  static final String CONTAINER = "epp";
  static final String CONFIG_VOLUME = "epp-config";
  static final String CONFIG_DIR = "/config";
  static final int DEFAULT_PORT = 9002;
  static final int HEALTH_PORT = 9003;
  static final int METRICS_PORT = 9090;
  static final String POOL_GROUP = "inference.networking.k8s.io";

  private PickerBuilder() {
  }

  /**
   * The picker's settings: {@code spec.inferencePool.endpointPicker} with the operator's image when it has none, or
   * OtterScale's synthetic default (operator image, one replica, port 9002, no failure mode).
   */
  static EndpointPickerSpec effective(ModelService ms, ModelServiceSettings settings) {
    EndpointPickerSpec p = ms.getSpec().inferencePool() == null ? null : ms.getSpec().inferencePool().endpointPicker();
    if (p == null) {
      return new EndpointPickerSpec(settings.pickerImage(), 1, null, DEFAULT_PORT, null);
    }
    String image = p.image() == null || p.image().isEmpty() ? settings.pickerImage() : p.image();
    int port = p.port() == null || p.port() <= 0 ? DEFAULT_PORT : p.port();
    return new EndpointPickerSpec(image, Objects.requireNonNullElse(p.replicas(), 1), p.resources(), port,
        p.failureMode());
  }

  static ServiceAccount serviceAccount(ModelServiceNames names) {
    return new ServiceAccountBuilder().withNewMetadata().withName(names.picker()).withNamespace(names.namespace())
        .withLabels(names.pickerLabels()).endMetadata().build();
  }

  static ConfigMap configMap(ModelServiceNames names, PickerConfig config) {
    return new ConfigMapBuilder().withNewMetadata().withName(names.pickerConfig()).withNamespace(names.namespace())
        .withLabels(names.pickerLabels()).endMetadata().withData(config.data()).build();
  }

  static Deployment deployment(ModelServiceNames names, EndpointPickerSpec picker, PickerConfig config,
      ModelServiceSettings settings) {
    Map<String, String> selector = names.pickerSelector();
    selector.put(ModelServiceNames.INFERENCE_POOL, names.picker());
    return new DeploymentBuilder()
        .withNewMetadata().withName(names.picker()).withNamespace(names.namespace()).withLabels(names.pickerLabels())
        .endMetadata()
        .withNewSpec().withReplicas(picker.replicas()).withNewStrategy().withType("Recreate").endStrategy()
        .withNewSelector().withMatchLabels(selector).endSelector()
        .withNewTemplate().withNewMetadata().withLabels(selector)
        .withAnnotations(Map.of(PickerConfig.HASH_ANNOTATION, config.hash())).endMetadata()
        .withNewSpec().withServiceAccountName(names.picker()).withTerminationGracePeriodSeconds(130L)
        .withNewSecurityContext().withRunAsNonRoot(true).withNewSeccompProfile().withType("RuntimeDefault")
        .endSeccompProfile().endSecurityContext()
        .withContainers(container(names, picker, config, settings))
        .addNewVolume().withName(CONFIG_VOLUME).withNewConfigMap().withName(names.pickerConfig())
        .withOptional(true).endConfigMap().endVolume()
        .endSpec().endTemplate().endSpec().build();
  }

  /** GIE's flags as OtterScale passes them, after {@code router} when the image is modelplane's. */
  static List<String> args(ModelServiceNames names, EndpointPickerSpec picker, PickerConfig config,
      ModelServiceSettings settings) {
    List<String> args = new ArrayList<>();
    if (isModelplane(picker.image())) {
      // It is the pool's endpoint picker: a reference to its own Service is never followed, even before the
      // Service's EndpointSlices list this pod.
      args.addAll(List.of("router", "--host=0.0.0.0", "--endpoint-picker-refs=in-process"));
    }
    args.addAll(List.of("--pool-name=" + names.pool(), "--pool-namespace=" + names.namespace(),
        "--pool-group=" + POOL_GROUP, "--config-file=" + CONFIG_DIR + "/" + config.fileName(),
        "--grpc-port=" + picker.port(), "--zap-encoder=json"));
    if (picker.replicas() > 1) {
      args.add("--ha-enable-leader-election");
    }
    args.add("--tracing=" + settings.tracing().enabled());
    if (!settings.metricsEndpointAuth()) {
      args.add("--metrics-endpoint-auth=false");
    } else if (isModelplane(picker.image())) {
      args.add("--metrics-endpoint-auth=true"); // GIE's pickers check tokens by default; modelplane's router on request
    }
    return args;
  }

  /** Whether {@code image} is modelplane's (any tag or digest), whose entry point needs the subcommand. */
  static boolean isModelplane(String image) {
    String repository = image.replaceAll("@.*$", "").replaceAll(":[^:/]*$", "");
    return repository.equals(ProjectVersion.IMAGE_REPOSITORY);
  }

  private static Container container(ModelServiceNames names, EndpointPickerSpec picker, PickerConfig config,
      ModelServiceSettings settings) {
    String healthService = picker.replicas() > 1 ? null : "inference-extension";
    List<EnvVar> env = new ArrayList<>(List.of(fieldEnv("NAMESPACE", "metadata.namespace"),
        fieldEnv("POD_NAME", "metadata.name")));
    env.addAll(Tracing.env(settings.tracing(), "gateway-api-inference-extension", true));
    return new ContainerBuilder().withName(CONTAINER).withImage(picker.image()).withImagePullPolicy("IfNotPresent")
        .withArgs(args(names, picker, config, settings)).withEnv(env)
        .withResources(resources(picker.resources()))
        .withPorts(ServingDeploymentBuilder.port("grpc-ext-proc", picker.port()),
            ServingDeploymentBuilder.port("grpc-health", HEALTH_PORT),
            ServingDeploymentBuilder.port("http-metrics", METRICS_PORT))
        .addNewVolumeMount().withName(CONFIG_VOLUME).withMountPath(CONFIG_DIR).withReadOnly(true).endVolumeMount()
        .withNewReadinessProbe().withNewGrpc().withPort(HEALTH_PORT)
        .withService(healthService == null ? "readiness" : healthService).endGrpc().withPeriodSeconds(2)
        .endReadinessProbe()
        .withNewLivenessProbe().withNewGrpc().withPort(HEALTH_PORT)
        .withService(healthService == null ? "liveness" : healthService).endGrpc().withInitialDelaySeconds(5)
        .withPeriodSeconds(10).endLivenessProbe()
        .withSecurityContext(SecurityDefaults.container()).build();
  }

  /** The user's resources as given, or OtterScale's default of 4 CPUs and 8 GiB (16 GiB limit). */
  static ResourceRequirements resources(ResourceRequirements user) {
    boolean empty = user == null || ((user.getRequests() == null || user.getRequests().isEmpty())
        && (user.getLimits() == null || user.getLimits().isEmpty()));
    if (!empty) {
      return user;
    }
    return new ResourceRequirementsBuilder().addToRequests("cpu", new Quantity("4"))
        .addToRequests("memory", new Quantity("8Gi")).addToLimits("memory", new Quantity("16Gi")).build();
  }

  static Service service(ModelServiceNames names, EndpointPickerSpec picker) {
    return new ServiceBuilder().withNewMetadata().withName(names.picker()).withNamespace(names.namespace())
        .withLabels(names.pickerLabels()).endMetadata()
        .withNewSpec().withSelector(names.pickerSelector())
        .addNewPort().withName("grpc-ext-proc").withPort(picker.port()).withTargetPort(new IntOrString(picker.port()))
        .withProtocol("TCP").endPort()
        .addNewPort().withName("http-metrics").withPort(METRICS_PORT).withTargetPort(new IntOrString(METRICS_PORT))
        .withProtocol("TCP").endPort()
        .endSpec().build();
  }

  static Role role(ModelServiceNames names, EndpointPickerSpec picker) {
    List<PolicyRule> rules = new ArrayList<>(List.of(
        rule("", List.of("pods"), List.of("get", "watch", "list")),
        rule("inference.networking.x-k8s.io", List.of("inferenceobjectives", "inferencemodelrewrites"),
            List.of("get", "watch", "list")),
        rule("llm-d.ai", List.of("inferenceobjectives", "inferencemodelrewrites"), List.of("get", "watch", "list")),
        rule(POOL_GROUP, List.of("inferencepools"), List.of("get", "watch", "list"))));
    if (picker.replicas() > 1) {
      rules.add(rule("coordination.k8s.io", List.of("leases"),
          List.of("get", "list", "watch", "create", "update", "patch", "delete")));
      rules.add(rule("", List.of("events"), List.of("create", "patch")));
    }
    return new RoleBuilder().withNewMetadata().withName(names.picker()).withNamespace(names.namespace())
        .withLabels(names.pickerLabels()).endMetadata().withRules(rules).build();
  }

  static RoleBinding roleBinding(ModelServiceNames names) {
    return new RoleBindingBuilder().withNewMetadata().withName(names.picker()).withNamespace(names.namespace())
        .withLabels(names.pickerLabels()).endMetadata()
        .addNewSubject().withKind("ServiceAccount").withName(names.picker()).withNamespace(names.namespace())
        .endSubject()
        .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("Role").withName(names.picker())
        .endRoleRef().build();
  }

  /**
   * Whether the picker is bound to the installed ClusterRole {@value ModelServiceNames#PICKER_CLUSTER_ROLE} (token
   * and access reviews, to check the bearer token on its metrics): only with {@code spec.inferencePool}, metrics
   * authentication on, and the operator's own picker image. A picker image the ModelService chooses runs code its
   * author picked, so it gets no cluster-wide rights; it checks tokens without them (and refuses scrapes) or not at
   * all, as that image decides.
   */
  static boolean clusterReviews(ModelService ms, EndpointPickerSpec picker, ModelServiceSettings settings) {
    return ms.getSpec().inferencePool() != null && settings.metricsEndpointAuth()
        && settings.pickerImage().equals(picker.image());
  }

  /**
   * The picker's binding to the installed ClusterRole, named per ModelService ({@link
   * ModelServiceNames#pickerClusterBinding()}) and annotated with its owner, which is checked before the binding is
   * replaced or removed.
   */
  static ClusterRoleBinding clusterRoleBinding(ModelServiceNames names) {
    return new ClusterRoleBindingBuilder().withNewMetadata().withName(names.pickerClusterBinding())
        .withLabels(names.pickerLabels())
        .withAnnotations(new LinkedHashMap<>(Map.of(ModelServiceNames.OWNER_ANNOTATION, names.owner())))
        .endMetadata()
        .addNewSubject().withKind("ServiceAccount").withName(names.picker()).withNamespace(names.namespace())
        .endSubject()
        .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("ClusterRole")
        .withName(ModelServiceNames.PICKER_CLUSTER_ROLE).endRoleRef().build();
  }

  private static PolicyRule rule(String group, List<String> resources, List<String> verbs) {
    return new PolicyRuleBuilder().withApiGroups(group).withResources(resources).withVerbs(verbs).build();
  }

  private static EnvVar fieldEnv(String name, String path) {
    return new EnvVarBuilder().withName(name).withNewValueFrom().withNewFieldRef().withFieldPath(path).endFieldRef()
        .endValueFrom().build();
  }
}
