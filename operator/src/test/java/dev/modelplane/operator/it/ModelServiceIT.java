package dev.modelplane.operator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.api.otterscale.v1alpha1.ModelService;
import dev.modelplane.api.otterscale.v1alpha1.ModelServicePhase;
import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.controlplane.Edits;
import dev.modelplane.controlplane.FakeNode;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.UpstreamCrds;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.operator.otterscale.modelservice.ModelServiceNames;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * OtterScale ModelServices on a real cluster (apiserver, controller-manager, scheduler, kwok GPU nodes): every object
 * of OtterScale's builders is created and owned, the phase follows the pods, switching prefill/decode on rolls the
 * picker through its config hash, deletion removes the cluster RBAC through the finalizer, a ClusterRoleBinding name
 * held by another owner is refused rather than taken over, an earlier release's binding of the same ModelService is
 * removed and another's left alone — and with the Gateway API, Istio and Prometheus Operator CRDs absent, the rest is
 * still reconciled and a condition names what is missing.
 */
@WithControlPlane({ControlPlane.Component.CONTROLLER_MANAGER, ControlPlane.Component.SCHEDULER,
    ControlPlane.Component.KWOK})
class ModelServiceIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static OperatorHarness harness;

  @BeforeAll
  static void startOperator(ControlPlane controlPlane) {
    harness = OperatorHarness.start(controlPlane);
  }

  @AfterAll
  static void stopOperator() {
    if (harness != null) {
      harness.close();
    }
  }

  private static ModelService create(KubernetesClient client, String ns, String name, String spec) {
    return client.resource(Serialization.unmarshal("""
        apiVersion: model.otterscale.io/v1alpha1
        kind: ModelService
        metadata: {name: %s, namespace: %s}
        spec:
        %s""".formatted(name, ns, spec.indent(2)), ModelService.class)).create();
  }

  private static ModelService get(KubernetesClient client, String ns, String name) {
    return client.resources(ModelService.class).inNamespace(ns).withName(name).get();
  }

  private static Condition condition(ModelService ms, String type) {
    return ms == null || ms.getStatus() == null || ms.getStatus().conditions() == null ? null
        : ms.getStatus().conditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
  }

  private static GenericKubernetesResource generic(KubernetesClient client, String apiVersion, String kind, String ns,
      String name) {
    var op = client.genericKubernetesResources(apiVersion, kind);
    return ns == null ? op.withName(name).get() : op.inNamespace(ns).withName(name).get();
  }

  private static void assertOwnedBy(HasMetadata object, ModelService ms) {
    assertThat(object).as("object").isNotNull();
    assertThat(object.getMetadata().getOwnerReferences()).as(object.getKind() + " " + object.getMetadata().getName())
        .anySatisfy(r -> {
          assertThat(r.getUid()).isEqualTo(ms.getMetadata().getUid());
          assertThat(r.getController()).isTrue();
        });
  }

  @Test
  void everyObjectIsCreatedOwnedAndFollowsTheSpecUntilTheFinalizerCleansUp(KubeTest test) throws Exception {
    test.installUpstreamCrds(UpstreamCrds.GATEWAY_API, UpstreamCrds.ISTIO, UpstreamCrds.PROMETHEUS_OPERATOR);
    test.addNodes(FakeNode.nvidia(test.uniqueName("gpu"), 8));
    KubernetesClient client = test.client();
    String ns = test.namespace();
    create(client, ns, "qwen", """
        model: {name: Qwen/Qwen3-0.6B, image: registry.example/models/qwen3:0.6b}
        engine: {image: vllm/vllm-openai:v0.11.0}
        accelerator: {type: nvidia}
        decode: {replicas: 2, parallelism: {tensor: 2}}
        inferencePool: {endpointPicker: {}}
        httpRoute: {gatewayRef: {name: edge}}
        monitoring: {podMonitor: {enabled: true}}
        """);
    await().atMost(TIMEOUT).untilAsserted(() -> {
      ModelService ms = get(client, ns, "qwen");
      assertThat(ms.getStatus()).isNotNull();
      assertThat(ms.getStatus().phase()).isEqualTo(ModelServicePhase.Ready);
      assertThat(ms.getStatus().decodeReady()).isEqualTo(2);
      assertThat(condition(ms, "Ready").getStatus()).isEqualTo("True");
      assertThat(condition(ms, "OptionalKindsInstalled")).isNull();
    });
    ModelService ms = get(client, ns, "qwen");
    assertThat(ms.getMetadata().getFinalizers()).contains("model.otterscale.io/epp-cluster-rbac");
    assertOwnedBy(client.apps().deployments().inNamespace(ns).withName("qwen-decode").get(), ms);
    assertOwnedBy(client.apps().deployments().inNamespace(ns).withName("qwen-epp").get(), ms);
    assertOwnedBy(client.serviceAccounts().inNamespace(ns).withName("qwen-epp").get(), ms);
    assertOwnedBy(client.configMaps().inNamespace(ns).withName("qwen-epp-config").get(), ms);
    assertOwnedBy(client.services().inNamespace(ns).withName("qwen-epp").get(), ms);
    // No service-account token Secret: Prometheus presents its own token.
    assertThat(client.secrets().inNamespace(ns).withName("qwen-epp-sa-metrics-reader-secret").get()).isNull();
    assertOwnedBy(client.rbac().roles().inNamespace(ns).withName("qwen-epp").get(), ms);
    assertOwnedBy(client.rbac().roleBindings().inNamespace(ns).withName("qwen-epp").get(), ms);
    assertOwnedBy(generic(client, "inference.networking.k8s.io/v1", "InferencePool", ns, "qwen"), ms);
    assertOwnedBy(generic(client, "gateway.networking.k8s.io/v1", "HTTPRoute", ns, "qwen"), ms);
    assertOwnedBy(generic(client, "networking.istio.io/v1beta1", "DestinationRule", ns, "qwen-epp"), ms);
    assertOwnedBy(generic(client, "monitoring.coreos.com/v1", "PodMonitor", ns, "qwen-decode"), ms);
    assertOwnedBy(generic(client, "monitoring.coreos.com/v1", "ServiceMonitor", ns, "qwen-epp"), ms);
    // One ClusterRoleBinding to the installed ClusterRole, under a name no other ModelService shares; no ClusterRole.
    String rbac = new ModelServiceNames("qwen", ns).pickerClusterBinding();
    assertThat(client.rbac().clusterRoles().withName(ns + "-qwen-epp").get()).isNull();
    ClusterRoleBinding binding = client.rbac().clusterRoleBindings().withName(rbac).get();
    assertThat(binding.getRoleRef().getName()).isEqualTo("modelplane-endpoint-picker");
    assertThat(binding.getSubjects()).singleElement().satisfies(s -> assertThat(s.getNamespace() + "/" + s.getName())
        .isEqualTo(ns + "/qwen-epp"));
    assertThat(client.pods().inNamespace(ns).withLabel("llm-d.ai/role", "decode").list().getItems()).hasSize(2)
        .allSatisfy(p -> assertThat(p.getSpec().getContainers().get(0).getResources().getLimits())
            .containsKey("nvidia.com/gpu"));

    String aggregatedHash = client.apps().deployments().inNamespace(ns).withName("qwen-epp").get().getSpec()
        .getTemplate().getMetadata().getAnnotations().get("checksum/config");
    Edits.onLatest(client.resources(ModelService.class).inNamespace(ns).withName("qwen"), m -> {
      var s = m.getSpec();
      m.setSpec(new dev.modelplane.api.otterscale.v1alpha1.ModelServiceSpec(s.model(), s.engine(), s.accelerator(),
          s.decode(), new dev.modelplane.api.otterscale.v1alpha1.RoleSpec(1, null, null, null, null, null),
          new dev.modelplane.api.otterscale.v1alpha1.RoutingProxySpec(null, "nixlv2", 8200, null, null, null, null,
              null), s.inferencePool(), s.httpRoute(), s.monitoring()));
      return m;
    });
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Deployment picker = client.apps().deployments().inNamespace(ns).withName("qwen-epp").get();
      assertThat(picker.getSpec().getTemplate().getMetadata().getAnnotations().get("checksum/config"))
          .isNotEqualTo(aggregatedHash);
      assertThat(picker.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs())
          .contains("--config-file=/config/pd-config.yaml");
      assertThat(client.configMaps().inNamespace(ns).withName("qwen-epp-config").get().getData())
          .containsOnlyKeys("pd-config.yaml");
      assertThat(client.apps().deployments().inNamespace(ns).withName("qwen-prefill").get()).isNotNull();
      assertThat(generic(client, "monitoring.coreos.com/v1", "PodMonitor", ns, "qwen-prefill")).isNotNull();
      ModelService now = get(client, ns, "qwen");
      assertThat(now.getStatus().prefillReplicas()).isEqualTo(1);
      assertThat(now.getStatus().phase()).isEqualTo(ModelServicePhase.Ready);
    });

    // A picker configuration of its own with the precise scorer: the API server takes the servers' event flags. The
    // annotation alone changes no generation, and is reconciled all the same.
    long generation = get(client, ns, "qwen").getMetadata().getGeneration();
    Edits.onLatest(client.resources(ModelService.class).inNamespace(ns).withName("qwen"), m -> {
      m.getMetadata().setAnnotations(Map.of("modelplane.dev/endpoint-picker-config",
          "plugins: [{type: precise-prefix-cache-scorer, parameters: {tokenProcessorConfig: {blockSize: 64}}}]\n"));
      return m;
    });
    assertThat(get(client, ns, "qwen").getMetadata().getGeneration()).isEqualTo(generation);
    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(client.apps().deployments().inNamespace(ns).withName("qwen-decode").get().getSpec().getTemplate()
          .getSpec().getContainers().stream().filter(c -> c.getName().equals("vllm")).findFirst().orElseThrow()
          .getArgs()).contains("--kv-events-config", "--block-size", "64");
      assertThat(condition(get(client, ns, "qwen"), "PrecisePrefixRouting")).isNotNull()
          .extracting(Condition::getStatus).isEqualTo("True");
      // The API server keeps the policy's port ranges (endPort) as rendered.
      assertThat(client.network().v1().networkPolicies().inNamespace(ns).withName("qwen-epp-kv-events").get()
          .getSpec().getIngress().get(1).getPorts())
          .anySatisfy(range -> assertThat(range.getEndPort()).isEqualTo(65_535));
    });
    // A namespace that denies ingress and egress by default keeps denying: the policy then opens only the events
    // ports, the picker may reach them, and both go back when the denial goes.
    var policies = client.network().v1().networkPolicies().inNamespace(ns);
    policies.resource(new NetworkPolicyBuilder().withNewMetadata().withName("default-deny").endMetadata()
        .withNewSpec().withNewPodSelector().endPodSelector().withPolicyTypes("Ingress", "Egress").endSpec().build())
        .create();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(policies.withName("qwen-epp-kv-events").get().getSpec().getIngress()).singleElement()
          .satisfies(rule -> assertThat(rule.getPorts()).extracting(p -> p.getPort().getIntVal())
              .containsExactly(5557));
      NetworkPolicy egress = policies.withName("qwen-epp-kv-events-egress").get();
      assertThat(egress).isNotNull();
      assertThat(egress.getSpec().getEgress()).singleElement()
          .satisfies(rule -> assertThat(rule.getPorts()).extracting(p -> p.getPort().getIntVal())
              .containsExactly(5557));
    });
    policies.withName("default-deny").delete();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(policies.withName("qwen-epp-kv-events").get().getSpec().getIngress()).hasSize(4);
      assertThat(policies.withName("qwen-epp-kv-events-egress").get()).isNull();
    });

    client.resources(ModelService.class).inNamespace(ns).withName("qwen").delete();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(get(client, ns, "qwen")).isNull();
      assertThat(client.rbac().clusterRoleBindings().withName(rbac).get()).isNull();
    });
  }

  @Test
  void withoutTheOptionalCrdsTheRestIsReconciledAndAConditionNamesWhatIsMissing(KubeTest test) throws Exception {
    test.addNodes(FakeNode.nvidia(test.uniqueName("gpu"), 2));
    KubernetesClient client = test.client();
    String ns = test.namespace();
    create(client, ns, "tiny", """
        model: {name: tiny, image: registry.example/models/tiny:1}
        engine: {}
        accelerator: {type: nvidia}
        decode: {}
        """);
    await().atMost(TIMEOUT).untilAsserted(() -> {
      ModelService ms = get(client, ns, "tiny");
      Condition missing = condition(ms, "OptionalKindsInstalled");
      assertThat(missing).isNotNull();
      assertThat(missing.getStatus()).isEqualTo("False");
      assertThat(missing.getMessage()).contains("httproutes.gateway.networking.k8s.io",
          "destinationrules.networking.istio.io", "podmonitors.monitoring.coreos.com");
      assertThat(ms.getStatus().phase()).isEqualTo(ModelServicePhase.Ready);
    });
    assertThat(client.apps().deployments().inNamespace(ns).withName("tiny-decode").get()).isNotNull();
    assertThat(client.apps().deployments().inNamespace(ns).withName("tiny-epp").get()).isNotNull();
    assertThat(generic(client, "inference.networking.k8s.io/v1", "InferencePool", ns, "tiny")).isNotNull();
    // Without spec.inferencePool there is no cluster-wide RBAC to clean up, but the finalizer is there as upstream.
    assertThat(client.rbac().clusterRoleBindings().withName(new ModelServiceNames("tiny", ns).pickerClusterBinding())
        .get()).isNull();
    List<String> finalizers = get(client, ns, "tiny").getMetadata().getFinalizers();
    assertThat(finalizers).contains("model.otterscale.io/epp-cluster-rbac");
  }

  private static ClusterRoleBinding binding(String name, Map<String, String> labels,
      Map<String, String> annotations, String roleName, String subjectNamespace, String subjectName) {
    return new ClusterRoleBindingBuilder().withNewMetadata().withName(name).withLabels(labels)
        .withAnnotations(annotations).endMetadata()
        .addNewSubject().withKind("ServiceAccount").withName(subjectName).withNamespace(subjectNamespace).endSubject()
        .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("ClusterRole").withName(roleName)
        .endRoleRef().build();
  }

  @Test
  void clusterBindingsOfOtherOwnersAreNeverTakenOverAndLegacyOnesGoOnlyWhenTheyAreThisModelServices(KubeTest test)
      throws Exception {
    test.addNodes(FakeNode.nvidia(test.uniqueName("gpu"), 4));
    KubernetesClient client = test.client();
    KubernetesClient admin = test.controlPlane().client();
    String ns = test.namespace();
    String spec = """
        model: {name: tiny, image: registry.example/models/tiny:1}
        engine: {}
        accelerator: {type: nvidia}
        decode: {}
        inferencePool: {endpointPicker: {}}
        """;
    // "taken": its binding's name is held by an object of another owner.
    ModelServiceNames taken = new ModelServiceNames("taken", ns);
    ClusterRoleBinding foreign = admin.rbac().clusterRoleBindings().resource(binding(taken.pickerClusterBinding(),
        Map.of(), Map.of("modelplane.dev/modelservice", "elsewhere/taken"), "view", "elsewhere",
        "taken-epp")).create();
    // "own": an earlier release's binding under OtterScale's name, for this very picker.
    ModelServiceNames own = new ModelServiceNames("own", ns);
    admin.rbac().clusterRoleBindings().resource(binding(own.legacyPickerClusterRbac(), own.pickerLabels(),
        Map.of(), own.legacyPickerClusterRbac(), ns, "own-epp")).create();
    // "x-own": its legacy name is that of "own" in namespace <ns>-x, whose binding it must not remove.
    ModelServiceNames other = new ModelServiceNames("own", ns + "-x");
    ModelServiceNames xOwn = new ModelServiceNames("x-own", ns);
    assertThat(xOwn.legacyPickerClusterRbac()).isEqualTo(other.legacyPickerClusterRbac());
    admin.rbac().clusterRoleBindings().resource(binding(other.legacyPickerClusterRbac(), other.pickerLabels(),
        Map.of(), other.legacyPickerClusterRbac(), ns + "-x", "own-epp")).create();
    try {
      create(client, ns, "taken", spec);
      create(client, ns, "own", spec);
      create(client, ns, "x-own", spec);
      await().atMost(TIMEOUT).untilAsserted(() -> {
        Condition ready = condition(get(client, ns, "taken"), "Ready");
        assertThat(ready).isNotNull();
        assertThat(ready.getStatus()).isEqualTo("False");
        assertThat(ready.getReason()).isEqualTo("ClusterBindingConflict");
        assertThat(ready.getMessage()).contains(taken.pickerClusterBinding(), "elsewhere/taken");
        assertThat(admin.rbac().clusterRoleBindings().withName(own.legacyPickerClusterRbac()).get()).isNull();
        assertThat(admin.rbac().clusterRoleBindings().withName(own.pickerClusterBinding()).get()).isNotNull();
        assertThat(admin.rbac().clusterRoleBindings().withName(xOwn.pickerClusterBinding()).get()).isNotNull();
      });
      ClusterRoleBinding still = admin.rbac().clusterRoleBindings().withName(taken.pickerClusterBinding()).get();
      assertThat(still.getMetadata().getUid()).isEqualTo(foreign.getMetadata().getUid());
      assertThat(still.getRoleRef().getName()).isEqualTo("view");
      assertThat(still.getSubjects().get(0).getNamespace()).isEqualTo("elsewhere");
      assertThat(admin.rbac().clusterRoleBindings().withName(other.legacyPickerClusterRbac()).get()).isNotNull();

      client.resources(ModelService.class).inNamespace(ns).withName("taken").delete();
      await().atMost(TIMEOUT).until(() -> get(client, ns, "taken") == null);
      assertThat(admin.rbac().clusterRoleBindings().withName(taken.pickerClusterBinding()).get().getMetadata()
          .getUid()).isEqualTo(foreign.getMetadata().getUid());
    } finally {
      admin.rbac().clusterRoleBindings().withName(taken.pickerClusterBinding()).delete();
      admin.rbac().clusterRoleBindings().withName(other.legacyPickerClusterRbac()).delete();
    }
  }
}
