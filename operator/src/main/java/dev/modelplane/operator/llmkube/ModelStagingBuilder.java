package dev.modelplane.operator.llmkube;

import dev.modelplane.api.llmkube.v1alpha1.ModelSpec;
import dev.modelplane.operator.model.ModelLayout;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvFromSourceBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The pod parts that put a Model's files where the server expects them: init containers, volumes and the server's
 * read-only mounts. Layout and rules are in {@link ModelLayout} and {@link ServingPlan}.
 *
 * <p>Init containers on the download path: {@code model-cache-prep} (only on a cache claim: makes {@code /models}
 * group-writable for the pod's fsGroup; the one container that runs as root, with only CHOWN and FOWNER) and
 * {@code model-downloader} (curl: each file is fetched once into {@code /models/<cacheKey>/}, written to a
 * {@code .tmp} file first so a half-download is never mistaken for a model, and the primary file is checked against
 * {@code spec.sha256} right after download). A mounted source ({@code pvc://} or a local path) whose Model declares
 * {@code spec.sha256} gets {@code model-verify}, which checks the file in place before the server starts.
 *
 * @param initContainers the init containers, in order
 * @param volumes the pod volumes
 * @param serverMounts the model-server container's mounts
 */
public record ModelStagingBuilder(List<Container> initContainers, List<Volume> volumes,
    List<VolumeMount> serverMounts) {

  public static final String CACHE_VOLUME = "model-cache";
  public static final String SOURCE_VOLUME = "model-source";
  public static final String HOST_VOLUME = "host-model";
  public static final String DRAFT_SOURCE_VOLUME = "draft-source";
  public static final String DRAFT_HOST_VOLUME = "draft-host";

  /**
   * The downloader's script; reads MODEL_FILES lines of {@code <target path> <url> [<sha256>|- [<refresh token>]]}.
   * A file with a refresh token is kept only when {@code <target>.source} holds that token.
   */
  static final String DOWNLOAD_SCRIPT = """
      set -eu
      fetch() {
        case "$2" in
          s3://*)
            rest="${2#s3://}"; bucket="${rest%%/*}"; key="${rest#*/}"
            if [ -n "${AWS_ENDPOINT_URL:-}" ]; then url="${AWS_ENDPOINT_URL%/}/$bucket/$key"
            else url="https://$bucket.s3.${AWS_REGION:-us-east-1}.amazonaws.com/$key"; fi
            curl -fL --retry 3 --aws-sigv4 "aws:amz:${AWS_REGION:-us-east-1}:s3" \\
              --user "${AWS_ACCESS_KEY_ID:-}:${AWS_SECRET_ACCESS_KEY:-}" -o "$1" "$url" ;;
          *)
            if [ -n "${HF_TOKEN:-}" ]; then curl -fL --retry 3 -H "Authorization: Bearer $HF_TOKEN" -o "$1" "$2"
            else curl -fL --retry 3 -o "$1" "$2"; fi ;;
        esac
      }
      echo "$MODEL_FILES" | while read -r target url sha token; do
        [ -n "$target" ] || continue
        [ "${sha:-}" != "-" ] || sha=""
        if [ -s "$target" ]; then
          if [ -z "${token:-}" ] || [ "$(cat "$target.source" 2>/dev/null || true)" = "$token" ]; then
            echo "cached $target"; continue
          fi
          echo "the source changed since $target was cached: downloading it again"
        fi
        mkdir -p "$(dirname "$target")"
        echo "downloading $url"
        fetch "$target.tmp" "$url"
        if [ -n "${sha:-}" ]; then echo "$sha  $target.tmp" | sha256sum -c -; fi
        mv "$target.tmp" "$target"
        if [ -n "${token:-}" ]; then echo "$token" > "$target.source"; fi
      done
      """;

  /** The verifier's script; reads MODEL_CHECKSUMS lines of {@code <sha256>  <path>} (sha256sum's check format). */
  static final String VERIFY_SCRIPT = """
      set -eu
      echo "verifying the SHA-256 of the mounted model file(s)"
      echo "$MODEL_CHECKSUMS" | sha256sum -c -
      """;

  /** The staging parts of a plan. */
  public static ModelStagingBuilder of(ServingPlan plan, long fsGroup) {
    List<Container> init = new ArrayList<>();
    List<Volume> volumes = new ArrayList<>();
    List<VolumeMount> mounts = new ArrayList<>();
    ModelLayout layout = plan.layout();
    if (plan.modelInit()) {
      switch (plan.cache().kind()) {
        case SHARED_CLAIM, OWNED_CLAIM, USER_CLAIM -> {
          volumes.add(new VolumeBuilder().withName(CACHE_VOLUME).withNewPersistentVolumeClaim()
              .withClaimName(plan.cache().claimName()).endPersistentVolumeClaim().build());
          init.add(cachePrep(plan.settings().initContainerImage(), fsGroup));
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
          .withSecurityContext(IsvcDeploymentBuilder.defaultContainerSecurity())
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

  static Container cachePrep(String image, long fsGroup) {
    SecurityContext root = new SecurityContextBuilder().withRunAsUser(0L).withRunAsNonRoot(false)
        .withAllowPrivilegeEscalation(false)
        .withNewCapabilities().withDrop("ALL").withAdd("CHOWN", "FOWNER").endCapabilities()
        .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile().build();
    return new ContainerBuilder().withName("model-cache-prep").withImage(image)
        .withCommand("sh", "-c", "chown 0:" + fsGroup + " " + ModelLayout.CACHE_MOUNT + " && chmod g+rwX "
            + ModelLayout.CACHE_MOUNT)
        .withVolumeMounts(mount(CACHE_VOLUME, ModelLayout.CACHE_MOUNT, false))
        .withSecurityContext(root)
        .withTerminationMessagePolicy("FallbackToLogsOnError")
        .build();
  }

  private static Container downloader(ServingPlan plan) {
    List<io.fabric8.kubernetes.api.model.LocalObjectReference> secrets = new ArrayList<>();
    secrets.add(plan.model().getSpec().sourceSecretRef());
    if (plan.draft() != null && plan.draftLayout().staging() == ModelLayout.Staging.DOWNLOAD) {
      secrets.add(plan.draft().getSpec().sourceSecretRef());
    }
    return downloader(plan.settings().initContainerImage(), plan.model().getSpec(), plan.layout(), plan.downloads(),
        secrets);
  }

  /** The {@code model-downloader} container: fetches {@code downloads} into the cache mounted at /models. */
  static Container downloader(String image, ModelSpec spec, ModelLayout layout, List<ServingPlan.Download> downloads,
      List<io.fabric8.kubernetes.api.model.LocalObjectReference> secrets) {
    List<EnvVar> env = new ArrayList<>();
    env.add(env("MODEL_SOURCE", spec.source()));
    if (layout.staging() == ModelLayout.Staging.DOWNLOAD) {
      env.add(env("CACHE_DIR", layout.modelDir()));
      env.add(env("MODEL_PATH", downloads.getFirst().target()));
    }
    env.add(env("MODEL_FILES", downloads.stream().map(ModelStagingBuilder::line)
        .collect(Collectors.joining("\n"))));
    List<EnvFromSource> envFrom = new ArrayList<>();
    for (var ref : secrets) {
      secret(ref, envFrom);
    }
    return new ContainerBuilder().withName("model-downloader").withImage(image)
        .withCommand("sh", "-c", DOWNLOAD_SCRIPT)
        .withEnv(env)
        .withEnvFrom(envFrom)
        .withVolumeMounts(mount(CACHE_VOLUME, ModelLayout.CACHE_MOUNT, false))
        .withSecurityContext(IsvcDeploymentBuilder.defaultContainerSecurity())
        .withTerminationMessagePolicy("FallbackToLogsOnError")
        .build();
  }

  /** One MODEL_FILES line: {@code target url}, then the checksum ({@code -} for none) when either follows. */
  static String line(ServingPlan.Download d) {
    String line = d.target() + " " + d.url();
    if (d.refreshToken() != null) {
      return line + " " + (d.sha256() == null ? "-" : d.sha256()) + " " + d.refreshToken();
    }
    return d.sha256() == null ? line : line + " " + d.sha256();
  }

  private static void secret(io.fabric8.kubernetes.api.model.LocalObjectReference ref, List<EnvFromSource> envFrom) {
    if (ref != null && ref.getName() != null && !ref.getName().isBlank()
        && envFrom.stream().noneMatch(e -> e.getSecretRef().getName().equals(ref.getName()))) {
      envFrom.add(new EnvFromSourceBuilder().withNewSecretRef().withName(ref.getName()).endSecretRef().build());
    }
  }

  private static EnvVar env(String name, String value) {
    return new EnvVarBuilder().withName(name).withValue(value).build();
  }

  private static VolumeMount mount(String volume, String path, boolean readOnly) {
    return new VolumeMountBuilder().withName(volume).withMountPath(path).withReadOnly(readOnly ? true : null).build();
  }
}
