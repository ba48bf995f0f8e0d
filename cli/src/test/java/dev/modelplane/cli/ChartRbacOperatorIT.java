package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.testsupport.FreePorts;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator runs with exactly the permissions the Helm chart grants when it watches one namespace (a Role there
 * plus a ClusterRole for the cluster-scoped kinds): it reconciles an InferenceService into a Deployment and writes
 * its status, and nothing it does is forbidden.
 */
@WithControlPlane
class ChartRbacOperatorIT {
  private static final Set<String> RBAC = Set.of("ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role",
      "RoleBinding");

  @TempDir
  Path dir;

  @Test
  void theChartsNamespacedRbacIsEnoughToServeItsNamespace(KubeTest test) throws Exception {
    String ns = test.namespace();
    String release = test.uniqueName("mp");
    KubernetesClient admin = test.controlPlane().client();
    List<GenericKubernetesResource> applied = OperatorFixtures.applyChartRbac(admin, release, ns, RBAC::contains,
        "--set", "operator.watchNamespaces={" + ns + "}", "--set", "router.enabled=false",
        "--set", "priorityClasses.create=false");
    assertThat(applied).extracting(GenericKubernetesResource::getKind).contains("Role", "ClusterRole");
    try {
      Path kubeconfig = OperatorFixtures.kubeconfigWithToken(test, "modelplane-operator",
          dir.resolve("operator.kubeconfig"));
      Path log = dir.resolve("operator.log");
      int port = FreePorts.pick();
      Process operator = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx256m", "-jar", OperatorFixtures.jar().toString(), "operator", "--kubeconfig=" + kubeconfig,
          "--namespaces=" + ns, "--lease-namespace=" + ns, "--bind-address=127.0.0.1", "--http-port=" + port,
          "--model-cache=none").redirectErrorStream(true).redirectOutput(log.toFile()).start();
      try {
        OperatorFixtures.applyModelAndService(test.client(), "chart");
        OperatorFixtures.awaitDeployment(test.client(), "chart");
        await().atMost(OperatorFixtures.TIMEOUT).until(() -> {
          GenericKubernetesResource isvc = test.client().genericKubernetesResources("inference.llmkube.dev/v1alpha1",
              "InferenceService").withName("chart").get();
          return isvc.getAdditionalProperties().get("status") != null;
        });
        assertThat(Files.readString(log)).doesNotContainIgnoringCase("forbidden")
            .doesNotContain("lacks permissions").doesNotContain("holds namespaced permissions cluster-wide");
      } finally {
        operator.destroyForcibly().waitFor();
        System.out.println("----- operator.log\n" + Files.readString(log));
      }
    } finally {
      for (GenericKubernetesResource o : applied) {
        admin.resource(o).delete();
      }
    }
  }
}
