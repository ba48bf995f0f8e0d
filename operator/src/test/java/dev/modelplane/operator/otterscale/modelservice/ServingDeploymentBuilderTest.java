package dev.modelplane.operator.otterscale.modelservice;

import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.SETTINGS;
import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.aggregated;
import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.deployment;
import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.disaggregated;
import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.ms;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ServingDeploymentBuilderTest {
  private static Container container(PodSpec pod, String name) {
    return pod.getContainers().stream().filter(c -> c.getName().equals(name)).findFirst()
        .or(() -> pod.getInitContainers().stream().filter(c -> c.getName().equals(name)).findFirst())
        .orElseThrow(() -> new AssertionError("no container " + name));
  }

  private static Map<String, String> env(Container c) {
    return c.getEnv().stream().collect(java.util.stream.Collectors.toMap(EnvVar::getName,
        e -> String.valueOf(e.getValue()), (a, b) -> a, java.util.LinkedHashMap::new));
  }

  @Test
  void decodePodsRunVllmServeOnTheUnpackedModelWithTheGeneratedArgumentsThenTheUsers() {
    Deployment d = deployment(ModelServicePlanner.plan(aggregated(), SETTINGS), "qwen-decode");
    assertThat(d.getSpec().getReplicas()).isEqualTo(2);
    assertThat(d.getMetadata().getLabels()).containsEntry("app.kubernetes.io/name", "qwen")
        .containsEntry("app.kubernetes.io/component", "model-decode")
        .containsEntry("app.kubernetes.io/part-of", "otterscale-system")
        .containsEntry("app.kubernetes.io/managed-by", "model-operator").containsKey("app.kubernetes.io/version")
        .doesNotContainKey("llm-d.ai/model");
    assertThat(d.getSpec().getSelector().getMatchLabels()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "app.kubernetes.io/name", "qwen", "app.kubernetes.io/component", "model-decode",
        "app.kubernetes.io/part-of", "otterscale-system", "app.kubernetes.io/managed-by", "model-operator",
        "llm-d.ai/inferenceServing", "true", "llm-d.ai/model", "qwen", "llm-d.ai/role", "decode"));
    assertThat(d.getSpec().getTemplate().getMetadata().getLabels())
        .isEqualTo(d.getSpec().getSelector().getMatchLabels());
    PodSpec pod = d.getSpec().getTemplate().getSpec();
    Container vllm = container(pod, "vllm");
    assertThat(vllm.getImage()).isEqualTo("vllm/vllm-openai:v0.11.0");
    assertThat(vllm.getCommand()).containsExactly("vllm", "serve");
    assertThat(vllm.getArgs()).containsExactly("/models", "--port", "8000", "--served-model-name", "Qwen/Qwen3-0.6B",
        "--tensor-parallel-size", "2", "--max-model-len", "8192");
    assertThat(env(vllm)).containsExactly(Map.entry("TP_SIZE", "2"), Map.entry("DP_SIZE", "1"),
        Map.entry("DP_SIZE_LOCAL", "1"), Map.entry("HOME", "/home/modelplane"));
    assertThat(vllm.getPorts()).extracting(p -> p.getName() + ":" + p.getContainerPort()).containsExactly("http:8000");
    assertThat(vllm.getResources().getLimits()).containsEntry("nvidia.com/gpu", new Quantity("2"));
    assertThat(vllm.getResources().getRequests()).containsEntry("nvidia.com/gpu", new Quantity("2"));
    assertThat(vllm.getVolumeMounts()).extracting(m -> m.getName() + ":" + m.getMountPath() + ":" + m.getReadOnly())
        .containsExactly("model:/models:true", "modelplane-home:/home/modelplane:null");
    assertThat(vllm.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/health");
    assertThat(vllm.getReadinessProbe().getHttpGet().getPort().getIntVal()).isEqualTo(8000);
    assertThat(pod.getInitContainers()).extracting(Container::getName).containsExactly("model-unpack");
    assertThat(pod.getVolumes()).extracting(v -> v.getName()).containsExactly("model", "model-tmp",
        "modelplane-home");
  }

  @Test
  void theModelIsUnpackedByKitIntoAnEmptyDirAndPullSecretsBecomeItsDockerConfig() {
    Deployment d = deployment(ModelServicePlanner.plan(ms("qwen", """
        model: {name: m, image: registry.example/m:1, mountPath: /data/m, imagePullSecrets: [{name: regcred},
                {name: other}]}
        engine: {}
        accelerator: {type: cpu}
        decode: {}
        """), SETTINGS), "qwen-decode");
    PodSpec pod = d.getSpec().getTemplate().getSpec();
    Container unpack = container(pod, "model-unpack");
    assertThat(unpack.getImage()).isEqualTo("ghcr.io/kitops-ml/kitops:v1.11.0");
    assertThat(unpack.getCommand()).containsExactly("/bin/sh", "-c");
    assertThat(unpack.getArgs()).singleElement().asString().startsWith("set -eu\n")
        .contains("kit unpack \"$OCI_MODEL_IMAGE\" --plain-http -o -d \"$MODEL_MOUNT_PATH\"");
    assertThat(env(unpack)).containsExactly(Map.entry("OCI_MODEL_IMAGE", "registry.example/m:1"),
        Map.entry("MODEL_MOUNT_PATH", "/data/m"), Map.entry("KITOPS_HOME", "/tmp/model-oci"),
        Map.entry("DOCKER_CONFIG", "/.docker"));
    assertThat(unpack.getVolumeMounts()).extracting(m -> m.getName() + ":" + m.getMountPath())
        .containsExactly("model-tmp:/tmp/model-oci", "model:/data/m", "docker-config:/.docker");
    assertThat(pod.getVolumes().get(2).getSecret().getSecretName()).isEqualTo("regcred");
    assertThat(pod.getVolumes().get(2).getSecret().getItems().get(0).getPath()).isEqualTo("config.json");
    assertThat(pod.getImagePullSecrets()).extracting(r -> r.getName()).containsExactly("regcred", "other");
    Container vllm = container(pod, "vllm");
    assertThat(vllm.getImage()).isEqualTo(SETTINGS.engineImage());
    assertThat(vllm.getArgs()).startsWith("/data/m");
    assertThat(vllm.getResources().getLimits()).isNullOrEmpty();
  }

  @ParameterizedTest
  @CsvSource({"nvidia,nvidia.com/gpu", "amd,amd.com/gpu", "intel-gaudi,habana.ai/gaudi", "google,google.com/tpu"})
  void acceleratorsAreTensorTimesDataLocalOfTheTypesResource(String type, String resource) {
    Deployment d = deployment(ModelServicePlanner.plan(ms("m", """
        model: {name: m, image: r/m:1}
        engine: {}
        accelerator: {type: %s}
        decode: {parallelism: {tensor: 2, data: 4, dataLocal: 3}, resources: {limits: {memory: 64Gi}}}
        """.formatted(type)), SETTINGS), "m-decode");
    Container vllm = d.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(vllm.getResources().getLimits()).containsEntry(resource, new Quantity("6"))
        .containsEntry("memory", new Quantity("64Gi"));
    assertThat(vllm.getResources().getRequests()).containsEntry(resource, new Quantity("6"));
    assertThat(vllm.getArgs()).containsSubsequence("--tensor-parallel-size", "2", "--data-parallel-size", "4",
        "--data-parallel-size-local", "3");
  }

  @Test
  void decodePodsGetTheRoutingSidecarOnTheEnginePortAndVllmMovesToItsTarget() {
    ModelServicePlan plan = ModelServicePlanner.plan(disaggregated(), SETTINGS);
    PodSpec decode = deployment(plan, "qwen-decode").getSpec().getTemplate().getSpec();
    assertThat(decode.getInitContainers()).extracting(Container::getName).containsExactly("model-unpack",
        "routing-proxy");
    Container proxy = container(decode, "routing-proxy");
    assertThat(proxy.getRestartPolicy()).isEqualTo("Always");
    assertThat(proxy.getImage()).isEqualTo("ghcr.io/llm-d/llm-d-routing-sidecar:v0.6.0");
    assertThat(proxy.getArgs()).containsExactly("--port", "8000", "--vllm-port", "8200", "--connector", "nixlv2",
        "--secure-proxy=false");
    assertThat(proxy.getPorts()).extracting(p -> p.getName() + ":" + p.getContainerPort()).containsExactly(
        "proxy:8000");
    assertThat(container(decode, "vllm").getArgs()).containsSubsequence("--port", "8200");
    PodSpec prefill = deployment(plan, "qwen-prefill").getSpec().getTemplate().getSpec();
    assertThat(prefill.getInitContainers()).extracting(Container::getName).containsExactly("model-unpack");
    assertThat(container(prefill, "vllm").getArgs()).containsSubsequence("--port", "8000");
    assertThat(deployment(plan, "qwen-prefill").getSpec().getSelector().getMatchLabels())
        .containsEntry("llm-d.ai/role", "prefill").containsEntry("app.kubernetes.io/component", "model-prefill");
  }

  @Test
  void everyServingContainerIsRestrictedAndThePodHasNoServiceAccountToken() {
    PodSpec pod = deployment(ModelServicePlanner.plan(disaggregated(), SETTINGS), "qwen-decode").getSpec()
        .getTemplate().getSpec();
    assertThat(pod.getAutomountServiceAccountToken()).isFalse();
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    for (Container c : java.util.stream.Stream.concat(pod.getInitContainers().stream(), pod.getContainers().stream())
        .toList()) {
      assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).as(c.getName()).isFalse();
      assertThat(c.getSecurityContext().getCapabilities().getDrop()).as(c.getName()).containsExactly("ALL");
    }
  }

  @Test
  void aNixlSideChannelPortInTheEngineEnvironmentIsExposedAndRoleSchedulingIsCopied() {
    Deployment d = deployment(ModelServicePlanner.plan(ms("m", """
        model: {name: m, image: r/m:1}
        engine: {env: [{name: VLLM_NIXL_SIDE_CHANNEL_PORT, value: "5600"}], imagePullPolicy: Always}
        accelerator: {type: nvidia}
        decode:
          nodeSelector: {gpu: h100}
          tolerations: [{key: gpu, operator: Exists, effect: NoSchedule}]
          annotations: {team: search}
        """), SETTINGS), "m-decode");
    Container vllm = d.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(vllm.getPorts()).extracting(p -> p.getName() + ":" + p.getContainerPort())
        .containsExactly("http:8000", "nixl-side:5600");
    assertThat(env(vllm)).containsEntry("VLLM_NIXL_SIDE_CHANNEL_PORT", "5600");
    assertThat(vllm.getImagePullPolicy()).isEqualTo("Always");
    assertThat(d.getSpec().getTemplate().getSpec().getNodeSelector()).containsEntry("gpu", "h100");
    assertThat(d.getSpec().getTemplate().getSpec().getTolerations()).hasSize(1);
    assertThat(d.getSpec().getTemplate().getMetadata().getAnnotations()).containsEntry("team", "search");
  }
}
