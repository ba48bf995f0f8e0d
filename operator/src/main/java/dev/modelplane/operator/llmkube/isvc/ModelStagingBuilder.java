package dev.modelplane.operator.llmkube.isvc;

import static dev.modelplane.operator.llmkube.ModelStaging.CACHE_VOLUME;
import static dev.modelplane.operator.llmkube.ModelStaging.DRAFT_HOST_VOLUME;
import static dev.modelplane.operator.llmkube.ModelStaging.DRAFT_SOURCE_VOLUME;
import static dev.modelplane.operator.llmkube.ModelStaging.HOST_VOLUME;
import static dev.modelplane.operator.llmkube.ModelStaging.SOURCE_VOLUME;
import static dev.modelplane.operator.llmkube.ModelStaging.VERIFY_SCRIPT;
import static dev.modelplane.operator.llmkube.ModelStaging.env;
import static dev.modelplane.operator.llmkube.ModelStaging.mount;

import dev.modelplane.operator.common.SecurityDefaults;
import dev.modelplane.operator.llmkube.ModelStaging;
import dev.modelplane.operator.modelsource.ModelLayout;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.util.ArrayList;
import java.util.List;

/**
 * The pod parts that put a Model's files where the server expects them: init containers, volumes and the server's
 * read-only mounts (the containers themselves are {@link ModelStaging}'s). A mounted source ({@code pvc://} or a
 * local path) whose Model declares {@code spec.sha256} gets {@code model-verify}, which checks the file in place
 * before the server starts.
 *
 * @param initContainers the init containers, in order
 * @param volumes the pod volumes
 * @param serverMounts the model-server container's mounts
 */
public record ModelStagingBuilder(List<Container> initContainers, List<Volume> volumes,
    List<VolumeMount> serverMounts) {

  /** The staging parts of a plan. */
  public static ModelStagingBuilder of(ServingPlan plan) {
    List<Container> init = new ArrayList<>();
    List<Volume> volumes = new ArrayList<>();
    List<VolumeMount> mounts = new ArrayList<>();
    ModelLayout layout = plan.layout();
    if (plan.modelInit()) {
      switch (plan.cache().kind()) {
        case SHARED_CLAIM, OWNED_CLAIM, USER_CLAIM -> {
          volumes.add(new VolumeBuilder().withName(CACHE_VOLUME).withNewPersistentVolumeClaim()
              .withClaimName(plan.cache().claimName()).endPersistentVolumeClaim().build());
          init.add(ModelStaging.cachePrep(plan.settings().initContainerImage()));
        }
        case EMPTY_DIR -> volumes.add(new VolumeBuilder().withName(CACHE_VOLUME).withNewEmptyDir()
            .withSizeLimit(plan.cache().sizeLimit() == null ? null : new Quantity(plan.cache().sizeLimit()))
            .endEmptyDir().build());
        case NONE -> {
        }
      }
      init.add(downloader(plan));
      mounts.add(mount(CACHE_VOLUME, ModelLayout.CACHE_MOUNT, true));
    }
    if (plan.mountSource()) {
      sourceVolume(layout, SOURCE_VOLUME, HOST_VOLUME, ModelLayout.PVC_MOUNT, ModelLayout.HOST_MOUNT, volumes, mounts);
    }
    if (plan.mountDraft()) {
      sourceVolume(plan.draftLayout(), DRAFT_SOURCE_VOLUME, DRAFT_HOST_VOLUME, ServingPlan.DRAFT_PVC_MOUNT,
          ServingPlan.DRAFT_HOST_MOUNT, volumes, mounts);
    }
    List<String> checks = new ArrayList<>();
    if (plan.mountSource()) {
      check(plan.model().getSpec().sha256(), layout, checks);
    }
    if (plan.mountDraft()) {
      check(plan.draft().getSpec().sha256(), plan.draftLayout(), checks);
    }
    if (!checks.isEmpty()) {
      init.add(new ContainerBuilder().withName("model-verify").withImage(plan.settings().initContainerImage())
          .withCommand("sh", "-c", VERIFY_SCRIPT)
          .withEnv(env("MODEL_CHECKSUMS", String.join("\n", checks)))
          .withVolumeMounts(mounts)
          .withSecurityContext(SecurityDefaults.container())
          .withTerminationMessagePolicy("FallbackToLogsOnError")
          .build());
    }
    return new ModelStagingBuilder(List.copyOf(init), List.copyOf(volumes), List.copyOf(mounts));
  }

  private static void sourceVolume(ModelLayout layout, String pvcVolume, String hostVolume, String pvcMount,
      String hostMount, List<Volume> volumes, List<VolumeMount> mounts) {
    if (layout.staging() == ModelLayout.Staging.PVC) {
      volumes.add(new VolumeBuilder().withName(pvcVolume).withNewPersistentVolumeClaim()
          .withClaimName(layout.sourceClaim()).withReadOnly(true).endPersistentVolumeClaim().build());
      mounts.add(mount(pvcVolume, pvcMount, true));
    } else if (layout.staging() == ModelLayout.Staging.HOST_PATH) {
      volumes.add(new VolumeBuilder().withName(hostVolume).withNewHostPath().withPath(layout.hostDirectory())
          .withType("Directory").endHostPath().build());
      mounts.add(mount(hostVolume, hostMount, true));
    }
  }

  /** Adds a {@code sha256sum -c} line for a mounted source whose Model declares a checksum. */
  private static void check(String sha256, ModelLayout layout, List<String> checks) {
    if (sha256 != null && !sha256.isBlank()) {
      checks.add(sha256.toLowerCase(java.util.Locale.ROOT) + "  " + layout.modelPath());
    }
  }

  private static Container downloader(ServingPlan plan) {
    List<io.fabric8.kubernetes.api.model.LocalObjectReference> secrets = new ArrayList<>();
    secrets.add(plan.model().getSpec().sourceSecretRef());
    if (plan.draft() != null && plan.draftLayout().staging() == ModelLayout.Staging.DOWNLOAD) {
      secrets.add(plan.draft().getSpec().sourceSecretRef());
    }
    return ModelStaging.downloader(plan.settings().initContainerImage(), plan.model().getSpec(), plan.layout(), plan.downloads(),
        secrets);
  }

}
