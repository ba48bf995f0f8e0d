package dev.modelplane.cli.devcluster;

import dev.modelplane.operator.scheduling.PriorityClassInstaller;
import io.fabric8.kubernetes.api.model.node.v1.RuntimeClass;
import io.fabric8.kubernetes.api.model.node.v1.RuntimeClassBuilder;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/**
 * What a GPU cluster has and the bare dev cluster lacks, so manifests written for real clusters work unchanged: the
 * {@code nvidia} RuntimeClass (the GPU operator's), the {@code llmkube-*} PriorityClasses, and a default StorageClass
 * whose claims {@link DirectoryProvisioner} binds.
 */
public final class ClusterAddons {
  /** The default StorageClass of the dev cluster. */
  public static final String STORAGE_CLASS = "modelplane-local";
  static final String MANAGER = "modelplane-dev-cluster";

  private ClusterAddons() {
  }

  /** The RuntimeClasses GPU manifests name. */
  static List<RuntimeClass> runtimeClasses() {
    return List.of(new RuntimeClassBuilder().withNewMetadata().withName("nvidia")
        .addToLabels("app.kubernetes.io/managed-by", MANAGER).endMetadata().withHandler("nvidia").build());
  }

  /** The default StorageClass, provisioned from a directory on this machine. */
  static StorageClass storageClass() {
    return new StorageClassBuilder().withNewMetadata().withName(STORAGE_CLASS)
        .addToAnnotations("storageclass.kubernetes.io/is-default-class", "true")
        .addToLabels("app.kubernetes.io/managed-by", MANAGER).endMetadata()
        .withProvisioner(DirectoryProvisioner.PROVISIONER).withReclaimPolicy("Delete")
        .withVolumeBindingMode("Immediate").withAllowVolumeExpansion(true).build();
  }

  /** Applies every add-on (idempotent). */
  public static void install(KubernetesClient client) {
    for (RuntimeClass rc : runtimeClasses()) {
      client.resource(rc).fieldManager(MANAGER).forceConflicts().serverSideApply();
    }
    client.storage().v1().storageClasses().resource(storageClass()).fieldManager(MANAGER).forceConflicts()
        .serverSideApply();
    PriorityClassInstaller.install(client);
  }
}
