package dev.modelplane.operator.common;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import org.junit.jupiter.api.Test;

class ControllerReferenceTest {
  private static final HasMetadata OWNER = new ConfigMapBuilder().withNewMetadata().withName("owner")
      .withUid("u-1").endMetadata().build();

  @Test
  void replacesAPlainReferenceToTheOwnerWithAControllerReferenceAndKeepsOthers() {
    Deployment d = new DeploymentBuilder().withNewMetadata().withName("d")
        .addToOwnerReferences(new OwnerReferenceBuilder().withKind("ConfigMap").withName("owner").withUid("u-1")
            .build())
        .addToOwnerReferences(new OwnerReferenceBuilder().withKind("Other").withName("x").withUid("u-2").build())
        .endMetadata().build();
    ControllerReference.set(d, OWNER);
    assertThat(d.getMetadata().getOwnerReferences()).hasSize(2);
    assertThat(d.getMetadata().getOwnerReferences()).filteredOn(r -> r.getUid().equals("u-1")).singleElement()
        .satisfies(r -> {
          assertThat(r.getController()).isTrue();
          assertThat(r.getBlockOwnerDeletion()).isTrue();
          assertThat(r.getKind()).isEqualTo("ConfigMap");
          assertThat(r.getApiVersion()).isEqualTo("v1");
          assertThat(r.getName()).isEqualTo("owner");
        });
    assertThat(d.getMetadata().getOwnerReferences()).filteredOn(r -> r.getUid().equals("u-2")).singleElement()
        .satisfies(r -> assertThat(r.getController()).isNull());
  }

  @Test
  void addsTheControllerReferenceToAnObjectWithoutOwners() {
    Deployment d = new DeploymentBuilder().withNewMetadata().withName("d").endMetadata().build();
    ControllerReference.set(d, OWNER);
    assertThat(d.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(r -> assertThat(r.getUid()).isEqualTo("u-1"));
  }
}
