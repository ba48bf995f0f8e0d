package dev.modelplane.operator.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.operator.app.AccessCheck;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The operator's start-up access check against the real apiserver's RBAC, with a service account bound exactly as
 * deploy/operator/rbac.yaml's {@code modelplane-operator-namespaced} ClusterRole says: per namespace it finds
 * nothing missing where bound and names what is missing elsewhere; bound cluster-wide while a namespace list is
 * watched, it reports the namespaced permissions held in every namespace.
 */
@WithControlPlane
class AccessCheckIT {
  @Test
  void namespacedBindingsSatisfyTheCheckAndClusterWideOnesAreReported(KubeTest test) throws Exception {
    KubernetesClient admin = test.controlPlane().client();
    String ns = test.namespace();
    String other = test.uniqueName("other");
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(other).endMetadata().build())
        .create();
    String role = test.uniqueName("operator-namespaced");
    GenericKubernetesResource clusterRole = namespacedClusterRole(admin);
    clusterRole.getMetadata().setName(role);
    admin.resource(clusterRole).create();
    String account = "operator";
    admin.serviceAccounts().inNamespace(ns).resource(new ServiceAccountBuilder().withNewMetadata()
        .withName(account).endMetadata().build()).create();
    admin.rbac().roleBindings().inNamespace(ns).resource(new RoleBindingBuilder().withNewMetadata()
        .withName("operator").endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", role)
        .addNewSubject().withKind("ServiceAccount").withName(account).withNamespace(ns).endSubject().build())
        .create();

    try (KubernetesClient operator = tokenClient(admin, ns, account)) {
      AccessCheck.Result bound = AccessCheck.run(operator, Set.of(ns));
      assertThat(bound.missing()).isEmpty();
      assertThat(bound.clusterWide()).isEmpty();

      AccessCheck.Result elsewhere = AccessCheck.run(operator, Set.of(ns, other));
      assertThat(elsewhere.missing()).contains(other + ": watch inferenceservices.inference.llmkube.dev",
          other + ": patch deployments.apps").noneMatch(m -> m.startsWith(ns + ":"));
      assertThat(AccessCheck.run(operator, Set.of()).missing()).contains("*: watch pods");

      String binding = test.uniqueName("operator-everywhere");
      admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata()
          .withName(binding).endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", role)
          .addNewSubject().withKind("ServiceAccount").withName(account).withNamespace(ns).endSubject().build())
          .create();
      try {
        AccessCheck.Result broad = AccessCheck.run(operator, Set.of(ns));
        assertThat(broad.missing()).isEmpty();
        assertThat(broad.clusterWide()).containsExactly("watch pods", "patch deployments.apps");
        assertThat(AccessCheck.run(operator, Set.of()).clusterWide()).isEmpty();
      } finally {
        admin.rbac().clusterRoleBindings().withName(binding).delete();
        admin.rbac().clusterRoles().withName(role).delete();
      }
    }
  }

  private static GenericKubernetesResource namespacedClusterRole(KubernetesClient admin) throws Exception {
    Path rbac = Path.of(System.getProperty("modelplane.repo.root", "..")).toAbsolutePath().normalize()
        .resolve("deploy/operator/rbac.yaml");
    List<HasMetadata> objects = admin.load(Files.newInputStream(rbac)).items();
    return objects.stream().filter(o -> "ClusterRole".equals(o.getKind())
            && "modelplane-operator-namespaced".equals(o.getMetadata().getName()))
        .map(o -> admin.getKubernetesSerialization().convertValue(o, GenericKubernetesResource.class))
        .findFirst().orElseThrow();
  }

  private static KubernetesClient tokenClient(KubernetesClient admin, String ns, String account) {
    String token = admin.serviceAccounts().inNamespace(ns).withName(account).tokenRequest(new TokenRequestBuilder()
        .withNewSpec().withExpirationSeconds(3600L).endSpec().build()).getStatus().getToken();
    Config config = new ConfigBuilder(Config.empty()).withMasterUrl(admin.getConfiguration().getMasterUrl())
        .withCaCertData(admin.getConfiguration().getCaCertData()).withOauthToken(token).build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }
}
