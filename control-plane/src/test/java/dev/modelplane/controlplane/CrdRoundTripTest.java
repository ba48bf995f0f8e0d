package dev.modelplane.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ApiResources;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The generated CRDs round-trip through the apiserver: what is stored equals what was applied, so a second field
 * manager (kubectl, a GitOps tool) applying the same CRDs server-side meets no conflict and sees no drift.
 */
@WithControlPlane
class CrdRoundTripTest {
  @Test
  void everyCrdIsStoredAsGeneratedAndAnotherManagerCanApplyItWithoutConflict(KubeTest test) {
    KubernetesClient client = test.controlPlane().client();
    for (Class<? extends HasMetadata> type : ApiResources.resourceClasses()) {
      CustomResourceDefinition generated = client.getKubernetesSerialization()
          .unmarshal(ApiResources.crdYaml(type), CustomResourceDefinition.class);
      String name = generated.getMetadata().getName();
      CustomResourceDefinition stored = client.apiextensions().v1().customResourceDefinitions().withName(name).get();
      assertThat(columns(stored.getSpec().getVersions())).as(name)
          .isEqualTo(columns(generated.getSpec().getVersions()));
      // No force: a field another manager would change back is a conflict.
      client.apiextensions().v1().customResourceDefinitions().resource(generated).fieldManager("another-manager")
          .serverSideApply();
    }
  }

  private static List<Object> columns(List<CustomResourceDefinitionVersion> versions) {
    return versions.stream().map(v -> (Object) List.of(v.getName(),
        v.getAdditionalPrinterColumns() == null ? List.of() : v.getAdditionalPrinterColumns())).toList();
  }
}
