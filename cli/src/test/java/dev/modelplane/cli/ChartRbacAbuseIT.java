package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.operator.otterscale.modelservice.ModelServiceNames;
import dev.modelplane.operator.scheduling.PriorityClassInstaller;
import dev.modelplane.testsupport.FreePorts;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The abuses the operator's RBAC must refuse, replayed on the real API server with the Helm chart's cluster-wide
 * RBAC and admission policies: with the operator's own ServiceAccount token (as if the operator were compromised) and
 * with a tenant's (a ServiceAccount that may edit our custom resources in one namespace). Neither may list Secrets,
 * create a service-account token Secret for kube-system's account, read or patch a kube-system ConfigMap, bind
 * cluster-admin (or the operator's own role), create or patch a ClusterRole, delete someone else's
 * ClusterRoleBinding, or create a Deployment in kube-system. What the operator needs still works with that token: an OtterScale ModelService gets its
 * picker's ClusterRoleBinding and loses it on deletion, with nothing forbidden in the log. The optional
 * PriorityClass role (deploy/operator/priority-classes-rbac.yaml) creates and applies the llmkube-* classes and may
 * patch no other.
 */
@WithControlPlane
class ChartRbacAbuseIT {
  private static final Set<String> KINDS = Set.of("ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role",
      "RoleBinding", "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding");

  @TempDir
  Path dir;

  @Test
  void operatorAndTenantTokensCannotEscalateAndTheOperatorStillServesModelServices(KubeTest test) throws Exception {
    String ns = test.namespace();
    String release = test.uniqueName("mp");
    KubernetesClient admin = test.controlPlane().client();
    List<GenericKubernetesResource> applied = OperatorFixtures.applyChartRbac(admin, release, ns, KINDS::contains,
        "--set", "router.enabled=false", "--set", "priorityClasses.create=false");
    assertThat(applied).extracting(GenericKubernetesResource::getKind).contains("ValidatingAdmissionPolicy");
    String kubeSystemConfig = test.uniqueName("abuse-target");
    admin.configMaps().inNamespace("kube-system").resource(new ConfigMapBuilder().withNewMetadata()
        .withName(kubeSystemConfig).endMetadata().addToData("secret", "value").build()).create();
    String victim = test.uniqueName("victim");
    admin.rbac().clusterRoleBindings().resource(binding(victim, "view", ns, "default")).create();
    KubernetesClient tenant = null;
    try {
      Path operatorConfig = OperatorFixtures.kubeconfigWithToken(test, "modelplane-operator",
          dir.resolve("operator.kubeconfig"));
      tenant = tenantClient(test);
      try (KubernetesClient operator = client(operatorConfig)) {
        // The admission policies take a moment to reach the API server's cache: wait on dry runs of each.
        await().atMost(OperatorFixtures.TIMEOUT).until(() -> refusedOrNull(() -> operator.rbac().clusterRoleBindings()
            .resource(binding(test.uniqueName("own"), release + "-operator", ns, "x")).dryRun().create()) != null
            && refusedOrNull(() -> operator.configMaps().inNamespace(ns).resource(new ConfigMapBuilder()
            .withNewMetadata().withName("app-settings").endMetadata().build()).dryRun().create()) != null
            && refusedOrNull(() -> operator.apps().deployments().inNamespace("kube-system").resource(abuse())
            .dryRun().create()) != null);

        for (KubernetesClient who : List.of(operator, tenant)) {
          replayAbuses(who, ns, kubeSystemConfig, victim, release);
        }

        // The operator may bind the endpoint picker role to one ServiceAccount, nothing more.
        assertThatCode(() -> operator.rbac().clusterRoleBindings().resource(binding(test.uniqueName("picker"),
            ModelServiceNames.PICKER_CLUSTER_ROLE, ns, "chat-epp")).dryRun().create()).doesNotThrowAnyException();
        ClusterRoleBinding two = binding(test.uniqueName("picker"), ModelServiceNames.PICKER_CLUSTER_ROLE, ns, "a");
        two.getSubjects().add(two.getSubjects().get(0).toBuilder().withName("b").build());
        assertRefused(() -> operator.rbac().clusterRoleBindings().resource(two).dryRun().create());
        // ... only to a picker's ServiceAccount, never to another account nor in a system namespace.
        assertRefused(() -> operator.rbac().clusterRoleBindings().resource(binding(test.uniqueName("picker"),
            ModelServiceNames.PICKER_CLUSTER_ROLE, ns, "default")).dryRun().create());
        assertRefused(() -> operator.rbac().clusterRoleBindings().resource(binding(test.uniqueName("picker"),
            ModelServiceNames.PICKER_CLUSTER_ROLE, "kube-system", "chat-epp")).dryRun().create());
        // ... and write picker ConfigMaps, no other.
        assertThatCode(() -> operator.configMaps().inNamespace(ns).resource(pickerConfig("chat-epp-config"))
            .dryRun().create()).doesNotThrowAnyException();
        assertRefused(() -> operator.configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata()
            .withName("app-settings").endMetadata().build()).dryRun().create());
      }
      runOperatorOnAModelService(test, operatorConfig);
    } finally {
      if (tenant != null) {
        tenant.close();
      }
      admin.configMaps().inNamespace("kube-system").withName(kubeSystemConfig).delete();
      admin.rbac().clusterRoleBindings().withName(victim).delete();
      for (GenericKubernetesResource o : applied) {
        admin.resource(o).delete();
      }
    }
  }

  @Test
  void thePriorityClassRoleCreatesTheLlmkubeClassesAndPatchesNoOther(KubeTest test) throws Exception {
    String ns = test.namespace();
    String account = test.uniqueName("pc");
    KubernetesClient admin = test.controlPlane().client();
    admin.serviceAccounts().inNamespace(ns).resource(new ServiceAccountBuilder().withNewMetadata().withName(account)
        .endMetadata().build()).create();
    String text = Files.readString(OperatorFixtures.repoRoot().resolve("deploy/operator/priority-classes-rbac.yaml"))
        .replace("name: modelplane-operator-priority-classes\n", "name: " + account + "\n")
        .replace("name: modelplane-operator\n", "name: " + account + "\n")
        .replace("namespace: modelplane-system", "namespace: " + ns);
    OperatorFixtures.applyAll(admin, text);
    // What the operator's ClusterRole modelplane-operator adds: reading PriorityClasses.
    admin.rbac().clusterRoles().resource(new ClusterRoleBuilder().withNewMetadata().withName(account + "-read")
        .endMetadata().addNewRule().withApiGroups("scheduling.k8s.io").withResources("priorityclasses")
        .withVerbs("get").endRule().build()).create();
    admin.rbac().clusterRoleBindings().resource(binding(account + "-read", account + "-read", ns, account)).create();
    try (KubernetesClient operator = client(OperatorFixtures.kubeconfigWithToken(test, account,
        dir.resolve("pc.kubeconfig")))) {
      await().atMost(OperatorFixtures.TIMEOUT).ignoreExceptions().untilAsserted(() -> {
        PriorityClassInstaller.install(operator);
        assertThat(operator.scheduling().v1().priorityClasses().withName("llmkube-batch").get()).isNotNull();
      });
      assertThatCode(() -> operator.scheduling().v1().priorityClasses().withName("llmkube-batch").patch(
          PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"app.kubernetes.io/managed-by\":"
              + "\"modelplane\"}}}")).doesNotThrowAnyException();
      assertRefused(() -> operator.scheduling().v1().priorityClasses().withName("system-cluster-critical")
          .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"x\":\"y\"}}}"));
    } finally {
      for (String name : List.of(account, account + "-read")) {
        admin.rbac().clusterRoleBindings().withName(name).delete();
        admin.rbac().clusterRoles().withName(name).delete();
      }
    }
  }

  /** Every abuse, refused for {@code who}. */
  private static void replayAbuses(KubernetesClient who, String ns, String kubeSystemConfig, String victim,
      String release) {
    // Secrets: no list (here or anywhere), no token minted for another account.
    assertRefused(() -> who.secrets().inNamespace(ns).list());
    assertRefused(() -> who.secrets().inAnyNamespace().list());
    assertRefused(() -> who.secrets().inNamespace("kube-system").resource(new SecretBuilder().withNewMetadata()
        .withName("minted").addToAnnotations("kubernetes.io/service-account.name", "default").endMetadata()
        .withType("kubernetes.io/service-account-token").build()).create());
    assertRefused(() -> who.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata()
        .withName("minted").addToAnnotations("kubernetes.io/service-account.name", "default").endMetadata()
        .withType("kubernetes.io/service-account-token").build()).create());
    // kube-system's ConfigMaps: not readable, and not through a patch's response either.
    assertRefused(() -> who.configMaps().inNamespace("kube-system").withName(kubeSystemConfig).get());
    assertRefused(() -> who.configMaps().inNamespace("kube-system").list());
    assertRefused(() -> who.configMaps().inNamespace("kube-system").withName(kubeSystemConfig)
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"x\":\"y\"}}}"));
    // Cluster RBAC: no binding to cluster-admin or to the operator's own role, no ClusterRole created or patched,
    // nobody else's binding deleted.
    assertRefused(() -> who.rbac().clusterRoleBindings().resource(binding("abuse-admin", "cluster-admin", ns,
        "default")).create());
    assertRefused(() -> who.rbac().clusterRoleBindings().resource(binding("abuse-operator", release + "-operator", ns,
        "default")).create());
    assertRefused(() -> who.rbac().clusterRoles().withName("admin").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"metadata\":{\"labels\":{\"x\":\"y\"}}}"));
    assertRefused(() -> who.rbac().clusterRoles().withName(release + "-operator").patch(
        PatchContext.of(PatchType.JSON), "[{\"op\":\"add\",\"path\":\"/rules/-\",\"value\":{\"apiGroups\":[\"\"],"
            + "\"resources\":[\"secrets\"],\"verbs\":[\"list\"]}}]"));
    assertRefused(() -> who.rbac().clusterRoles().resource(new ClusterRoleBuilder().withNewMetadata()
        .withName("abuse").endMetadata().build()).create());
    assertRefused(() -> who.rbac().clusterRoleBindings().withName(victim).delete());
    // No workload in kube-system, where it could run as a powerful ServiceAccount or mount any Secret.
    assertRefused(() -> who.apps().deployments().inNamespace("kube-system").resource(abuse()).dryRun().create());
  }

  /** A Deployment running as a kube-system controller's ServiceAccount. */
  private static Deployment abuse() {
    return new DeploymentBuilder().withNewMetadata().withName("abuse").endMetadata().withNewSpec().withNewSelector()
        .addToMatchLabels("app", "abuse").endSelector().withNewTemplate().withNewMetadata().addToLabels("app", "abuse")
        .endMetadata().withNewSpec().withServiceAccountName("clusterrole-aggregation-controller").addNewContainer()
        .withName("c").withImage("registry.invalid/abuse:1").endContainer().endSpec().endTemplate().endSpec().build();
  }

  /** The operator, with the chart's token, reconciles a ModelService and its picker's binding; nothing forbidden. */
  private void runOperatorOnAModelService(KubeTest test, Path kubeconfig) throws Exception {
    String ns = test.namespace();
    Path log = dir.resolve("operator.log");
    Process operator = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-jar", OperatorFixtures.jar().toString(), "operator", "--kubeconfig=" + kubeconfig,
        "--namespaces=" + ns, "--lease-namespace=" + ns, "--bind-address=127.0.0.1",
        "--http-port=" + FreePorts.pick(), "--model-cache=none", "--modelservice-provider=none")
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    KubernetesClient client = test.client();
    String binding = new ModelServiceNames("chat", ns).pickerClusterBinding();
    try {
      client.resource(Serialization.unmarshal("""
          apiVersion: model.otterscale.io/v1alpha1
          kind: ModelService
          metadata: {name: chat}
          spec:
            model: {name: tiny, image: registry.example/models/tiny:1}
            engine: {}
            accelerator: {type: cpu}
            decode: {}
            inferencePool: {endpointPicker: {}}
          """, GenericKubernetesResource.class)).create();
      await().atMost(OperatorFixtures.TIMEOUT).untilAsserted(() -> {
        ClusterRoleBinding made = client.rbac().clusterRoleBindings().withName(binding).get();
        assertThat(made).isNotNull();
        assertThat(made.getRoleRef().getName()).isEqualTo(ModelServiceNames.PICKER_CLUSTER_ROLE);
        assertThat(client.configMaps().withName("chat-epp-config").get()).isNotNull();
        assertThat(client.apps().deployments().withName("chat-epp").get()).isNotNull();
      });
      client.genericKubernetesResources("model.otterscale.io/v1alpha1", "ModelService").withName("chat").delete();
      await().atMost(OperatorFixtures.TIMEOUT).untilAsserted(() -> {
        assertThat(client.genericKubernetesResources("model.otterscale.io/v1alpha1", "ModelService")
            .withName("chat").get()).isNull();
        assertThat(client.rbac().clusterRoleBindings().withName(binding).get()).isNull();
      });
      assertThat(Files.readString(log)).doesNotContainIgnoringCase("forbidden").doesNotContain("lacks permissions")
          .doesNotContain("denied request");
    } finally {
      operator.destroyForcibly().waitFor();
      System.out.println("----- operator.log\n" + Files.readString(log));
      test.controlPlane().client().rbac().clusterRoleBindings().withName(binding).delete();
    }
  }

  /** A ServiceAccount that may do anything to our custom resources in the test's namespace, and nothing else. */
  private KubernetesClient tenantClient(KubeTest test) throws Exception {
    KubernetesClient admin = test.client();
    admin.serviceAccounts().resource(new ServiceAccountBuilder().withNewMetadata().withName("tenant").endMetadata()
        .build()).create();
    admin.rbac().roles().resource(new RoleBuilder().withNewMetadata().withName("tenant").endMetadata()
        .addNewRule().withApiGroups("model.otterscale.io", "inference.llmkube.dev", "ome.io").withResources("*")
        .withVerbs("*").endRule().build()).create();
    admin.rbac().roleBindings().resource(new RoleBindingBuilder().withNewMetadata().withName("tenant").endMetadata()
        .withNewRoleRef("rbac.authorization.k8s.io", "Role", "tenant").addNewSubject().withKind("ServiceAccount")
        .withName("tenant").withNamespace(test.namespace()).endSubject().build()).create();
    return client(OperatorFixtures.kubeconfigWithToken(test, "tenant", dir.resolve("tenant.kubeconfig")));
  }

  private static KubernetesClient client(Path kubeconfig) throws Exception {
    return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(kubeconfig))).build();
  }

  private static ClusterRoleBinding binding(String name, String role, String ns, String account) {
    return new ClusterRoleBindingBuilder().withNewMetadata().withName(name).endMetadata()
        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", role)
        .addNewSubject().withKind("ServiceAccount").withName(account).withNamespace(ns).endSubject().build();
  }

  private static ConfigMap pickerConfig(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name)
        .addToLabels(ModelServiceNames.COMPONENT, ModelServiceNames.PICKER_COMPONENT).endMetadata().build();
  }

  /** Refused by RBAC (403) or by an admission policy (403 or 422 Invalid). */
  private static void assertRefused(ThrowingCallable call) {
    KubernetesClientException e = refusedOrNull(call);
    assertThat(e).as("refused").isNotNull();
    assertThat(e.getCode()).as(e.getMessage()).isIn(403, 422);
  }

  private static KubernetesClientException refusedOrNull(ThrowingCallable call) {
    return catchThrowableOfType(KubernetesClientException.class, call);
  }
}
