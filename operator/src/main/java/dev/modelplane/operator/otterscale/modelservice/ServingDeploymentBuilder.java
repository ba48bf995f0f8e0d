package dev.modelplane.operator.otterscale.modelservice;

import dev.modelplane.api.otterscale.v1alpha1.AcceleratorType;
import dev.modelplane.api.otterscale.v1alpha1.ModelService;
import dev.modelplane.api.otterscale.v1alpha1.ModelServiceSpec;
import dev.modelplane.api.otterscale.v1alpha1.ParallelismSpec;
import dev.modelplane.api.otterscale.v1alpha1.RoleSpec;
import dev.modelplane.api.otterscale.v1alpha1.RoutingProxySpec;
import dev.modelplane.common.servers.VllmFlags;
import dev.modelplane.operator.ModelServiceSettings;
import dev.modelplane.operator.common.SecurityDefaults;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The decode and prefill Deployments of a ModelService, as OtterScale builds them: a {@code model-unpack} init
 * container that unpacks the ModelPack artifact into an emptyDir, {@code vllm serve <mountPath>} with the generated
 * arguments then the user's, accelerators = tensor × dataLocal of the accelerator's resource, and on decode pods the
 * llm-d routing sidecar (a native sidecar on the engine port, vLLM moved to its target port). Differences from
 * upstream: a readiness probe on vLLM's {@code /health} (upstream has none, so a loading server took traffic); the
 * unpack script runs under {@code set -eu} ({@code pipefail} is not in every {@code /bin/sh}); pod labels carry no
 * operator version, so upgrading the operator does not restart model servers.
 */
final class ServingDeploymentBuilder {
  static final String ENGINE_CONTAINER = "vllm";
  static final String UNPACK_CONTAINER = "model-unpack";
  static final String PROXY_CONTAINER = "routing-proxy";
  static final String MODEL_VOLUME = "model";
  static final String TMP_VOLUME = "model-tmp";
  static final String TMP_PATH = "/tmp/model-oci";
  static final String DOCKER_VOLUME = "docker-config";
  static final String DOCKER_PATH = "/.docker";
  static final int DEFAULT_ENGINE_PORT = 8000;
  static final int DEFAULT_PROXY_TARGET = 8200;
  static final String NIXL_PORT_ENV = "VLLM_NIXL_SIDE_CHANNEL_PORT";
  static final String UNPACK_SCRIPT = """
      set -eu
      export KITOPS_HOME="${KITOPS_HOME:-/tmp/model-oci}"
      mkdir -p "$KITOPS_HOME"
      kit unpack "$OCI_MODEL_IMAGE" --plain-http -o -d "$MODEL_MOUNT_PATH"
      """;

  private ServingDeploymentBuilder() {
  }

  /** The Deployment of {@code role} ({@code decode} or {@code prefill}, which must be set in the spec). */
  static Deployment build(ModelService ms, String role, ModelServiceSettings settings) {
    ModelServiceSpec spec = ms.getSpec();
    ModelServiceNames names = new ModelServiceNames(ms.getMetadata().getName(), ms.getMetadata().getNamespace());
    RoleSpec roleSpec = ModelServiceNames.DECODE.equals(role) ? spec.decode() : spec.prefill();
    boolean proxied = ModelServiceNames.DECODE.equals(role) && spec.routingProxy() != null;
    int enginePort = enginePort(spec);
    int vllmPort = proxied ? proxyTarget(spec.routingProxy()) : enginePort;
    String mountPath = mountPath(spec);
    List<Container> init = new ArrayList<>();
    if (!settings.kitImage().isEmpty()) {
      init.add(unpack(spec, settings.kitImage(), mountPath));
    }
    if (proxied) {
      init.add(proxy(spec.routingProxy(), enginePort, settings));
    }
    List<Volume> volumes = new ArrayList<>(List.of(
        new VolumeBuilder().withName(MODEL_VOLUME).withNewEmptyDir().endEmptyDir().build(),
        new VolumeBuilder().withName(TMP_VOLUME).withNewEmptyDir().endEmptyDir().build()));
    if (hasPullSecrets(spec)) {
      volumes.add(new VolumeBuilder().withName(DOCKER_VOLUME).withNewSecret()
          .withSecretName(spec.model().imagePullSecrets().get(0).getName())
          .addNewItem().withKey(".dockerconfigjson").withPath("config.json").endItem().endSecret().build());
    }
    return new DeploymentBuilder()
        .withNewMetadata().withName(names.serving(role)).withNamespace(names.namespace())
        .withLabels(ModelServiceNames.standard(names.service(), ModelServiceNames.component(role))).endMetadata()
        .withNewSpec().withReplicas(Objects.requireNonNullElse(roleSpec.replicas(), 1))
        .withNewSelector().withMatchLabels(names.servingSelector(role)).endSelector()
        .withNewTemplate().withNewMetadata().withLabels(names.servingSelector(role))
        .withAnnotations(roleSpec.annotations()).endMetadata()
        .withNewSpec().withInitContainers(init)
        .withContainers(engine(spec, roleSpec, vllmPort, mountPath, settings))
        .withImagePullSecrets(spec.model().imagePullSecrets()).withAutomountServiceAccountToken(false)
        .withNewSecurityContext().withRunAsNonRoot(true).withNewSeccompProfile().withType("RuntimeDefault")
        .endSeccompProfile().endSecurityContext()
        .withNodeSelector(roleSpec.nodeSelector()).withTolerations(roleSpec.tolerations()).withVolumes(volumes)
        .endSpec().endTemplate().endSpec().build();
  }

  static int enginePort(ModelServiceSpec spec) {
    Integer p = spec.engine() == null ? null : spec.engine().port();
    return p == null || p <= 0 ? DEFAULT_ENGINE_PORT : p;
  }

  static int proxyTarget(RoutingProxySpec proxy) {
    return proxy.targetPort() == null || proxy.targetPort() <= 0 ? DEFAULT_PROXY_TARGET : proxy.targetPort();
  }

  static String mountPath(ModelServiceSpec spec) {
    String p = spec.model().mountPath();
    return p == null || p.isEmpty() ? "/models" : p;
  }

  private static boolean hasPullSecrets(ModelServiceSpec spec) {
    return spec.model().imagePullSecrets() != null && !spec.model().imagePullSecrets().isEmpty();
  }

  private static Container unpack(ModelServiceSpec spec, String kitImage, String mountPath) {
    ContainerBuilder b = new ContainerBuilder().withName(UNPACK_CONTAINER).withImage(kitImage)
        .withCommand("/bin/sh", "-c").withArgs(UNPACK_SCRIPT)
        .addToEnv(env("OCI_MODEL_IMAGE", spec.model().image()), env("MODEL_MOUNT_PATH", mountPath),
            env("KITOPS_HOME", TMP_PATH))
        .addNewVolumeMount().withName(TMP_VOLUME).withMountPath(TMP_PATH).endVolumeMount()
        .addNewVolumeMount().withName(MODEL_VOLUME).withMountPath(mountPath).endVolumeMount()
        .withSecurityContext(SecurityDefaults.container());
    if (hasPullSecrets(spec)) {
      b.addToEnv(env("DOCKER_CONFIG", DOCKER_PATH))
          .addNewVolumeMount().withName(DOCKER_VOLUME).withMountPath(DOCKER_PATH).withReadOnly(true).endVolumeMount();
    }
    return b.build();
  }

  private static Container proxy(RoutingProxySpec proxy, int enginePort, ModelServiceSettings settings) {
    List<String> args = new ArrayList<>(List.of("--port", String.valueOf(enginePort),
        "--vllm-port", String.valueOf(proxyTarget(proxy)),
        "--connector", Objects.requireNonNullElse(proxy.connector(), "nixlv2")));
    if (proxy.zapEncoder() != null && !proxy.zapEncoder().isEmpty()) {
      args.addAll(List.of("--zap-encoder", proxy.zapEncoder()));
    }
    if (proxy.zapLogLevel() != null && !proxy.zapLogLevel().isEmpty()) {
      args.addAll(List.of("--zap-log-level", proxy.zapLogLevel()));
    }
    args.add("--secure-proxy=" + Boolean.TRUE.equals(proxy.secureProxy()));
    if (proxy.prefillerUseTLS() != null) {
      args.add("--prefiller-use-tls=" + proxy.prefillerUseTLS());
    }
    if (proxy.certPath() != null && !proxy.certPath().isEmpty()) {
      args.addAll(List.of("--cert-path", proxy.certPath()));
    }
    String image = proxy.image() == null || proxy.image().isEmpty() ? settings.routingProxyImage() : proxy.image();
    return new ContainerBuilder().withName(PROXY_CONTAINER).withImage(image).withRestartPolicy("Always")
        .withArgs(args).withPorts(port("proxy", enginePort))
        .withEnv(Tracing.env(settings.tracing(), "llm-d-routing-sidecar", false))
        .withSecurityContext(SecurityDefaults.container()).build();
  }

  private static Container engine(ModelServiceSpec spec, RoleSpec role, int vllmPort, String mountPath,
      ModelServiceSettings settings) {
    ParallelismSpec par = role.parallelism() == null ? new ParallelismSpec(1, 1, 1) : role.parallelism();
    int tensor = atLeastOne(par.tensor());
    int data = atLeastOne(par.data());
    int dataLocal = atLeastOne(par.dataLocal());
    List<String> args = new ArrayList<>(List.of(mountPath, VllmFlags.PORT, String.valueOf(vllmPort),
        VllmFlags.SERVED_MODEL_NAME, spec.model().name()));
    if (tensor > 1) {
      args.addAll(List.of(VllmFlags.TENSOR_PARALLEL_SIZE, String.valueOf(tensor)));
    }
    if (data > 1) {
      args.addAll(List.of(VllmFlags.DATA_PARALLEL_SIZE, String.valueOf(data)));
    }
    if (dataLocal > 1) {
      args.addAll(List.of(VllmFlags.DATA_PARALLEL_SIZE_LOCAL, String.valueOf(dataLocal)));
    }
    List<EnvVar> userEnv = spec.engine() == null || spec.engine().env() == null ? List.of() : spec.engine().env();
    if (spec.engine() != null && spec.engine().args() != null) {
      args.addAll(spec.engine().args());
    }
    List<EnvVar> env = new ArrayList<>(List.of(env("TP_SIZE", String.valueOf(tensor)),
        env("DP_SIZE", String.valueOf(data)), env("DP_SIZE_LOCAL", String.valueOf(dataLocal))));
    env.addAll(userEnv);
    List<ContainerPort> ports = new ArrayList<>(List.of(port("http", vllmPort)));
    Integer nixl = nixlPort(userEnv);
    if (nixl != null && nixl != vllmPort) {
      ports.add(port("nixl-side", nixl));
    }
    String image = spec.engine().image() == null || spec.engine().image().isEmpty() ? settings.engineImage()
        : spec.engine().image();
    ContainerBuilder b = new ContainerBuilder().withName(ENGINE_CONTAINER).withImage(image)
        .withCommand("vllm", "serve").withArgs(args).withEnv(env).withPorts(ports)
        .addNewVolumeMount().withName(MODEL_VOLUME).withMountPath(mountPath).withReadOnly(true).endVolumeMount()
        .withResources(resources(role.resources(), spec.accelerator().type(), tensor * dataLocal))
        .withNewReadinessProbe().withNewHttpGet().withPath("/health").withPort(new IntOrString(vllmPort))
        .endHttpGet().withPeriodSeconds(5).withFailureThreshold(3).endReadinessProbe()
        .withSecurityContext(SecurityDefaults.container());
    if (spec.engine().imagePullPolicy() != null) {
      b.withImagePullPolicy(spec.engine().imagePullPolicy().name());
    }
    return b.build();
  }

  /** The device resource of an accelerator type; {@code null} for CPU. */
  static String acceleratorResource(AcceleratorType type) {
    return switch (type) {
      case NVIDIA -> "nvidia.com/gpu";
      case AMD -> "amd.com/gpu";
      case INTEL_GAUDI -> "habana.ai/gaudi";
      case GOOGLE -> "google.com/tpu";
      case CPU -> null;
    };
  }

  /** The user's resources with {@code count} of the accelerator in both requests and limits. */
  static ResourceRequirements resources(ResourceRequirements user, AcceleratorType type, int count) {
    ResourceRequirementsBuilder b = user == null ? new ResourceRequirementsBuilder()
        : new ResourceRequirementsBuilder(user);
    String resource = type == null ? null : acceleratorResource(type);
    if (resource != null && count > 0) {
      b.addToRequests(resource, new Quantity(String.valueOf(count)))
          .addToLimits(resource, new Quantity(String.valueOf(count)));
    }
    return b.build();
  }

  private static Integer nixlPort(List<EnvVar> env) {
    for (EnvVar e : env) {
      if (NIXL_PORT_ENV.equals(e.getName())) {
        try {
          int p = Integer.parseInt(String.valueOf(e.getValue()).trim());
          return p >= 1 && p <= 65535 ? p : null;
        } catch (NumberFormatException ignored) {
          return null;
        }
      }
    }
    return null;
  }

  private static int atLeastOne(Integer v) {
    return v == null ? 1 : Math.max(1, v);
  }

  static EnvVar env(String name, String value) {
    return new EnvVarBuilder().withName(name).withValue(value).build();
  }

  static ContainerPort port(String name, int number) {
    return new ContainerPortBuilder().withName(name).withContainerPort(number).withProtocol("TCP").build();
  }
}
