package dev.modelplane.cli.devcluster;

import dev.modelplane.common.io.PathTrees;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A dynamic provisioner for the dev cluster's default StorageClass: each pending claim of the class gets a
 * PersistentVolume backed by a directory under {@code root} and pre-bound to it (the controller-manager's volume
 * binder completes the binding); a released volume's directory and object are deleted.
 */
public final class DirectoryProvisioner implements AutoCloseable {
  /** The provisioner name in the StorageClass and on the volumes it creates. */
  public static final String PROVISIONER = "modelplane.dev/local-directory";
  private static final String PROVISIONED_BY = "pv.kubernetes.io/provisioned-by";
  private static final Logger LOG = LoggerFactory.getLogger(DirectoryProvisioner.class);

  private final KubernetesClient client;
  private final Path root;
  private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "directory-provisioner");
    t.setDaemon(true);
    return t;
  });
  private SharedIndexInformer<PersistentVolumeClaim> claims;
  private SharedIndexInformer<PersistentVolume> volumes;

  public DirectoryProvisioner(KubernetesClient client, Path root) {
    this.client = client;
    this.root = root;
  }

  /** Starts watching claims and volumes. */
  public void start() {
    claims = client.persistentVolumeClaims().inAnyNamespace().inform(handler(this::provision), 30_000);
    volumes = client.persistentVolumes().inform(handler(this::reclaim), 30_000);
  }

  private <T> ResourceEventHandler<T> handler(java.util.function.Consumer<T> action) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        worker.execute(() -> action.accept(obj));
      }

      @Override
      public void onUpdate(T before, T obj) {
        worker.execute(() -> action.accept(obj));
      }

      @Override
      public void onDelete(T obj, boolean unknownFinalState) {
      }
    };
  }

  /** The volume for {@code claim}: same size, access modes and mode, pre-bound by UID. */
  static PersistentVolume volumeFor(PersistentVolumeClaim claim, Path dir) {
    Quantity size = claim.getSpec().getResources() == null || claim.getSpec().getResources().getRequests() == null
        ? new Quantity("1Gi") : claim.getSpec().getResources().getRequests().getOrDefault("storage",
            new Quantity("1Gi"));
    return new PersistentVolumeBuilder().withNewMetadata().withName("pvc-" + claim.getMetadata().getUid())
        .addToAnnotations(PROVISIONED_BY, PROVISIONER).endMetadata()
        .withNewSpec().withCapacity(Map.of("storage", size)).withAccessModes(claim.getSpec().getAccessModes())
        .withVolumeMode(claim.getSpec().getVolumeMode()).withStorageClassName(claim.getSpec().getStorageClassName())
        .withPersistentVolumeReclaimPolicy("Delete")
        .withNewHostPath().withPath(dir.toString()).withType("DirectoryOrCreate").endHostPath()
        .withClaimRef(new ObjectReferenceBuilder().withApiVersion("v1").withKind("PersistentVolumeClaim")
            .withNamespace(claim.getMetadata().getNamespace()).withName(claim.getMetadata().getName())
            .withUid(claim.getMetadata().getUid()).build())
        .endSpec().build();
  }

  private void provision(PersistentVolumeClaim claim) {
    boolean ours = ClusterAddons.STORAGE_CLASS.equals(claim.getSpec().getStorageClassName());
    boolean pending = claim.getStatus() == null || claim.getStatus().getPhase() == null
        || "Pending".equals(claim.getStatus().getPhase());
    boolean unbound = claim.getSpec().getVolumeName() == null || claim.getSpec().getVolumeName().isEmpty();
    if (!ours || !pending || !unbound || claim.getMetadata().getDeletionTimestamp() != null) {
      return;
    }
    String name = "pvc-" + claim.getMetadata().getUid();
    if (client.persistentVolumes().withName(name).get() != null) {
      return;
    }
    Path dir = root.resolve(claim.getMetadata().getNamespace() + "-" + claim.getMetadata().getName() + "-"
        + claim.getMetadata().getUid());
    try {
      Files.createDirectories(dir);
      client.persistentVolumes().resource(volumeFor(claim, dir)).create();
      LOG.atInfo().addKeyValue("event", "volume_provisioned").addKeyValue("volume", name)
          .addKeyValue("claim", claim.getMetadata().getNamespace() + "/" + claim.getMetadata().getName())
          .log("provisioned a directory volume");
    } catch (IOException | KubernetesClientException e) {
      LOG.atWarn().addKeyValue("event", "volume_provision_failed").addKeyValue("volume", name).setCause(e)
          .log("could not provision; retried on the next resync");
    }
  }

  private void reclaim(PersistentVolume volume) {
    boolean ours = PROVISIONER.equals(volume.getMetadata().getAnnotations() == null ? null
        : volume.getMetadata().getAnnotations().get(PROVISIONED_BY));
    boolean released = volume.getStatus() != null && "Released".equals(volume.getStatus().getPhase());
    if (!ours || !released || !"Delete".equals(volume.getSpec().getPersistentVolumeReclaimPolicy())) {
      return;
    }
    try {
      Path dir = Path.of(volume.getSpec().getHostPath().getPath());
      if (dir.startsWith(root)) {
        PathTrees.deleteRecursively(dir);
      }
      client.persistentVolumes().withName(volume.getMetadata().getName()).delete();
      LOG.atInfo().addKeyValue("event", "volume_deleted").addKeyValue("volume", volume.getMetadata().getName())
          .log("released volume deleted");
    } catch (IOException | KubernetesClientException e) {
      LOG.atWarn().addKeyValue("event", "volume_delete_failed").addKeyValue("volume", volume.getMetadata().getName())
          .setCause(e).log("could not delete a released volume; retried on the next resync");
    }
  }

  @Override
  public void close() {
    for (SharedIndexInformer<?> informer : java.util.Arrays.asList(claims, volumes)) {
      if (informer != null) {
        informer.stop();
      }
    }
    worker.shutdownNow();
  }
}
