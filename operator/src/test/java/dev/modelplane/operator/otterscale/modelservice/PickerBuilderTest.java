package dev.modelplane.operator.otterscale.modelservice;

import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.SETTINGS;
import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.aggregated;
import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.deployment;
import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.disaggregated;
import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.find;
import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.has;
import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.ms;
import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.operator.ModelServiceSettings;
import dev.modelplane.operator.ProjectVersion;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PickerBuilderTest {
  private static final String EXPLICIT_POOL = """
      model: {name: Qwen/Qwen3-0.6B, image: r/q:1}
      engine: {}
      accelerator: {type: nvidia}
      decode: {}
      inferencePool:
        endpointPicker: {image: ghcr.io/llm-d/llm-d-inference-scheduler:v0.6.0, replicas: 2, port: 9100,
                         resources: {requests: {cpu: "1"}}}
      """;

  @Test
  void everyModelServiceGetsAPickerRunningModelplanesRouterWithGiesFlags() {
    ModelServicePlan plan = ModelServicePlanner.plan(ms("qwen3.0_6b", """
        model: {name: q, image: r/q:1}
        engine: {}
        accelerator: {type: cpu}
        decode: {}
        """), SETTINGS);
    Deployment d = deployment(plan, "qwen3-0-6b-epp");
    assertThat(d.getSpec().getStrategy().getType()).isEqualTo("Recreate");
    assertThat(d.getSpec().getReplicas()).isEqualTo(1);
    PodSpec pod = d.getSpec().getTemplate().getSpec();
    assertThat(pod.getServiceAccountName()).isEqualTo("qwen3-0-6b-epp");
    assertThat(pod.getTerminationGracePeriodSeconds()).isEqualTo(130L);
    Container epp = pod.getContainers().get(0);
    assertThat(epp.getName()).isEqualTo("epp");
    assertThat(epp.getImage()).isEqualTo(ProjectVersion.image());
    assertThat(epp.getArgs()).containsExactly("router", "--host=0.0.0.0", "--endpoint-picker-refs=in-process",
        "--pool-name=qwen3.0_6b",
        "--pool-namespace=team", "--pool-group=inference.networking.k8s.io",
        "--config-file=/config/default-plugins.yaml", "--grpc-port=9002", "--zap-encoder=json", "--tracing=false",
        "--metrics-endpoint-auth=true");
    assertThat(epp.getPorts()).extracting(p -> p.getName() + ":" + p.getContainerPort())
        .containsExactly("grpc-ext-proc:9002", "grpc-health:9003", "http-metrics:9090");
    assertThat(epp.getReadinessProbe().getGrpc().getService()).isEqualTo("inference-extension");
    assertThat(epp.getReadinessProbe().getPeriodSeconds()).isEqualTo(2);
    assertThat(epp.getLivenessProbe().getGrpc().getPort()).isEqualTo(9003);
    assertThat(epp.getLivenessProbe().getInitialDelaySeconds()).isEqualTo(5);
    assertThat(epp.getResources().getRequests()).containsEntry("cpu", new Quantity("4"))
        .containsEntry("memory", new Quantity("8Gi"));
    assertThat(epp.getResources().getLimits()).containsOnlyKeys("memory");
    assertThat(epp.getVolumeMounts().get(0).getMountPath()).isEqualTo("/config");
    assertThat(pod.getVolumes().get(0).getConfigMap().getName()).isEqualTo("qwen3-0-6b-epp-config");
    assertThat(d.getSpec().getTemplate().getMetadata().getLabels()).containsEntry("inferencepool", "qwen3-0-6b-epp");
    // Without spec.inferencePool: no cluster RBAC (and never a token Secret).
    assertThat(plan.clusterScoped()).isEmpty();
    assertThat(plan.owned()).noneMatch(o -> "Secret".equals(o.getKind()));
    assertThat(has(plan, "ServiceAccount", "qwen3-0-6b-epp")).isTrue();
  }

  @Test
  void anExplicitPickerKeepsUpstreamsArgumentsForItsImageAndRunsHighlyAvailable() {
    ModelServicePlan plan = ModelServicePlanner.plan(ms("qwen", EXPLICIT_POOL), SETTINGS);
    Container epp = deployment(plan, "qwen-epp").getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(epp.getArgs()).containsExactly("--pool-name=qwen", "--pool-namespace=team",
        "--pool-group=inference.networking.k8s.io", "--config-file=/config/default-plugins.yaml",
        "--grpc-port=9100", "--zap-encoder=json", "--ha-enable-leader-election", "--tracing=false");
    assertThat(epp.getReadinessProbe().getGrpc().getService()).isEqualTo("readiness");
    assertThat(epp.getLivenessProbe().getGrpc().getService()).isEqualTo("liveness");
    assertThat(epp.getResources().getRequests()).containsOnly(Map.entry("cpu", new Quantity("1")));
    Role role = find(plan, Role.class, "qwen-epp");
    assertThat(role.getRules()).extracting(r -> r.getApiGroups().get(0) + ":" + r.getResources())
        .containsExactly(":[pods]", "inference.networking.x-k8s.io:[inferenceobjectives, inferencemodelrewrites]",
            "llm-d.ai:[inferenceobjectives, inferencemodelrewrites]", "inference.networking.k8s.io:[inferencepools]",
            "coordination.k8s.io:[leases]", ":[events]");
    RoleBinding binding = find(plan, RoleBinding.class, "qwen-epp");
    assertThat(binding.getSubjects().get(0).getName()).isEqualTo("qwen-epp");
    assertThat(binding.getRoleRef().getName()).isEqualTo("qwen-epp");
    Service svc = find(plan, Service.class, "qwen-epp");
    assertThat(svc.getSpec().getPorts()).extracting(p -> p.getName() + ":" + p.getPort())
        .containsExactly("grpc-ext-proc:9100", "http-metrics:9090");
    assertThat(svc.getSpec().getSelector()).doesNotContainKey("inferencepool")
        .containsEntry("app.kubernetes.io/name", "qwen-epp").containsEntry("app.kubernetes.io/component", "epp");
    // An image the ModelService chose runs its author's code: no cluster-wide rights, and no token Secret.
    assertThat(plan.clusterScoped()).isEmpty();
    assertThat(plan.owned()).noneMatch(o -> "Secret".equals(o.getKind()) || "ClusterRole".equals(o.getKind()));
  }

  @Test
  void theOperatorsOwnPickerImageIsBoundToTheInstalledClusterRoleUnderAHashedName() {
    ModelServicePlan plan = ModelServicePlanner.plan(ms("qwen", EXPLICIT_POOL.replace(
        "image: ghcr.io/llm-d/llm-d-inference-scheduler:v0.6.0, ", "")), SETTINGS);
    ModelServiceNames names = new ModelServiceNames("qwen", "team");
    assertThat(plan.clusterScoped()).singleElement().isInstanceOf(ClusterRoleBinding.class);
    ClusterRoleBinding binding = (ClusterRoleBinding) plan.clusterScoped().get(0);
    assertThat(binding.getMetadata().getName()).isEqualTo(names.pickerClusterBinding())
        .matches("team-qwen-epp-[0-9a-f]{10}");
    assertThat(binding.getMetadata().getAnnotations()).containsEntry("modelplane.dev/modelservice", "team/qwen");
    assertThat(binding.getRoleRef().getKind()).isEqualTo("ClusterRole");
    assertThat(binding.getRoleRef().getName()).isEqualTo("modelplane-endpoint-picker");
    assertThat(binding.getSubjects()).singleElement().satisfies(s -> {
      assertThat(s.getKind()).isEqualTo("ServiceAccount");
      assertThat(s.getName()).isEqualTo("qwen-epp");
      assertThat(s.getNamespace()).isEqualTo("team");
    });
    // The operator never creates a ClusterRole or a service-account token Secret.
    assertThat(plan.owned()).noneMatch(o -> "Secret".equals(o.getKind()) || "ClusterRole".equals(o.getKind()));
    // The same spec with metrics authentication off: nothing cluster-scoped.
    ModelServiceSettings off = new ModelServiceSettings(null, null, null, null, null, null, null, false, null);
    assertThat(ModelServicePlanner.plan(ms("qwen", EXPLICIT_POOL.replace(
        "image: ghcr.io/llm-d/llm-d-inference-scheduler:v0.6.0, ", "")), off).clusterScoped()).isEmpty();
  }

  @Test
  void clusterBindingNamesDoNotCollideAcrossNamespacesAndStayWithinTheLimit() {
    ModelServiceNames a = new ModelServiceNames("x-y", "team");
    ModelServiceNames b = new ModelServiceNames("y", "team-x");
    // OtterScale's name is the same for both; the hashed one is not.
    assertThat(a.legacyPickerClusterRbac()).isEqualTo(b.legacyPickerClusterRbac()).isEqualTo("team-x-y-epp");
    assertThat(a.pickerClusterBinding()).isNotEqualTo(b.pickerClusterBinding()).startsWith("team-x-y-epp-");
    ModelServiceNames longest = new ModelServiceNames("m".repeat(253), "n".repeat(63));
    assertThat(longest.pickerClusterBinding()).hasSizeLessThanOrEqualTo(253).matches("[a-z0-9-]+[0-9a-f]{10}");
    assertThat(new ModelServiceNames("m".repeat(253), "n".repeat(62)).pickerClusterBinding())
        .isNotEqualTo(longest.pickerClusterBinding());
  }

  @Test
  void aLegacyBindingIsRecognisedByItsSubjectNotByItsAmbiguousName() {
    ModelServiceNames a = new ModelServiceNames("x-y", "team");
    ModelServiceNames b = new ModelServiceNames("y", "team-x");
    ClusterRoleBinding legacyOfB = new ClusterRoleBindingBuilder().withNewMetadata()
        .withName("team-x-y-epp").withLabels(b.pickerLabels()).endMetadata()
        .addNewSubject().withKind("ServiceAccount").withName("y-epp").withNamespace("team-x").endSubject()
        .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("ClusterRole").withName("team-x-y-epp")
        .endRoleRef().build();
    assertThat(PickerClusterBinding.legacyOf(legacyOfB, b)).isTrue();
    assertThat(PickerClusterBinding.legacyOf(legacyOfB, a)).isFalse();
    // A binding of another owner (no annotation, or another ModelService's) is never this one's.
    ClusterRoleBinding mine = PickerBuilder.clusterRoleBinding(a);
    assertThat(PickerClusterBinding.ownedBy(mine, a)).isTrue();
    assertThat(PickerClusterBinding.ownedBy(mine, b)).isFalse();
    assertThat(PickerClusterBinding.ownedBy(legacyOfB, b)).isFalse();
  }

  @Test
  void prefillDecodeSwitchesTheConfigurationAndItsHashRollsThePicker() {
    ConfigMap aggregatedConfig = find(ModelServicePlanner.plan(aggregated(), SETTINGS), ConfigMap.class,
        "qwen-epp-config");
    ModelServicePlan pd = ModelServicePlanner.plan(disaggregated(), SETTINGS);
    ConfigMap pdConfig = find(pd, ConfigMap.class, "qwen-epp-config");
    assertThat(aggregatedConfig.getData()).containsOnlyKeys("default-plugins.yaml");
    assertThat(pdConfig.getData()).containsOnlyKeys("pd-config.yaml");
    assertThat(pdConfig.getData().get("pd-config.yaml")).contains("prepareDataPlugins", "pd-profile-handler",
        "prefill-header-handler", "prefix-based-pd-decider");
    // OtterScale's own hashes of the two files: the picker rolls exactly when upstream's would.
    assertThat(PickerConfig.of(false).hash())
        .isEqualTo("3aee930c4fc2cf8c749623ba30a077bd93d5cca0c6513c87a5fe3427b089f2f1");
    assertThat(PickerConfig.of(true).hash())
        .isEqualTo("da2206ceec8c17d0eef3714ea7387e412c7b565661113eef5c0d0fd2b083eb23");
    Deployment picker = deployment(pd, "qwen-epp");
    assertThat(picker.getSpec().getTemplate().getMetadata().getAnnotations())
        .containsEntry("checksum/config", PickerConfig.of(true).hash());
    assertThat(picker.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs())
        .contains("--config-file=/config/pd-config.yaml");
  }

  @Test
  void operatorSettingsReachThePicker() {
    ModelServiceSettings settings = new ModelServiceSettings(null, "mirror.example/epp:1", null, null, null, null,
        ModelServiceSettings.Provider.GKE, false,
        new ModelServiceSettings.Tracing(true, "http://otel:4317", "always_on", ""));
    ModelServicePlan plan = ModelServicePlanner.plan(ms("qwen", EXPLICIT_POOL.replace(
        "image: ghcr.io/llm-d/llm-d-inference-scheduler:v0.6.0, ", "")), settings);
    Container epp = deployment(plan, "qwen-epp").getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(epp.getImage()).isEqualTo("mirror.example/epp:1");
    assertThat(epp.getArgs()).first().isEqualTo("--pool-name=qwen");
    assertThat(epp.getArgs()).contains("--tracing=true", "--metrics-endpoint-auth=false");
    assertThat(epp.getEnv()).extracting(e -> e.getName()).containsExactly("NAMESPACE", "POD_NAME",
        "OTEL_SERVICE_NAME", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_TRACES_EXPORTER",
        "OTEL_RESOURCE_ATTRIBUTES_NODE_NAME", "OTEL_RESOURCE_ATTRIBUTES_POD_NAME", "OTEL_RESOURCE_ATTRIBUTES",
        "OTEL_TRACES_SAMPLER");
    // No metrics authentication: no cluster-wide rights (the reconciler removes an earlier binding).
    assertThat(plan.clusterScoped()).isEmpty();
  }

  @Test
  void modelplanesImageIsRecognisedByRepositoryWhateverTheTag() {
    assertThat(PickerBuilder.isModelplane("ghcr.io/modelplane/modelplane:0.2.0")).isTrue();
    assertThat(PickerBuilder.isModelplane("ghcr.io/modelplane/modelplane@sha256:abc")).isTrue();
    assertThat(PickerBuilder.isModelplane("ghcr.io/modelplane/modelplane")).isTrue();
    assertThat(PickerBuilder.isModelplane("ghcr.io/llm-d/llm-d-inference-scheduler:v0.6.0")).isFalse();
    assertThat(PickerBuilder.isModelplane("localhost:5000/modelplane:1")).isFalse();
  }

  @Test
  void namesFollowOtterScalesDns1035Rule() {
    assertThat(ModelServiceNames.dns1035("qwen3-0.6b-fp8-dynamic")).isEqualTo("qwen3-0-6b-fp8-dynamic");
    assertThat(ModelServiceNames.dns1035("9b.Model")).isEqualTo("m-9b-model");
    assertThat(ModelServiceNames.dns1035("a..b__c")).isEqualTo("a-b-c");
    assertThat(ModelServiceNames.dns1035("...")).isEqualTo("modelservice");
    ModelServiceNames n = new ModelServiceNames("llama.3", "ns");
    assertThat(n.picker()).isEqualTo("llama-3-epp");
    assertThat(n.legacyPickerClusterRbac()).isEqualTo("ns-llama-3-epp");
    assertThat(n.serving("decode")).isEqualTo("llama.3-decode");
    assertThat(n.pool()).isEqualTo("llama.3");
  }
}
