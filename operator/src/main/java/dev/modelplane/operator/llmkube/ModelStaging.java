package dev.modelplane.operator.llmkube;

import dev.modelplane.api.llmkube.v1alpha1.ModelSpec;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.OperatorLabels;
import dev.modelplane.operator.common.SecurityDefaults;
import dev.modelplane.operator.modelsource.ModelLayout;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvFromSourceBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * How a Model's files reach the pods of the LLMKube API, shared by the InferenceService pods and the Model's
 * prefetch Job: the shared cache claim, the list of files to fetch, and the init containers that fetch or check them.
 *
 * <p>{@code model-cache-prep} (only on a cache claim: checks that the pod's non-root user can write {@code /models},
 * which the kubelet makes group-writable for the pod's fsGroup) and {@code model-downloader} (curl: each file is
 * fetched once into {@code /models/<cacheKey>/}, written to a {@code .tmp} file first so a half-download is never
 * mistaken for a model, and the primary file is checked against {@code spec.sha256} right after download).
 */
public final class ModelStaging {
  /** Name of the per-namespace shared cache claim. */
  public static final String SHARED_CACHE_CLAIM = "llmkube-model-cache";
  public static final String CACHE_VOLUME = "model-cache";
  public static final String SOURCE_VOLUME = "model-source";
  public static final String HOST_VOLUME = "host-model";
  public static final String DRAFT_SOURCE_VOLUME = "draft-source";
  public static final String DRAFT_HOST_VOLUME = "draft-host";

  /**
   * The downloader's script; reads MODEL_FILES lines of {@code <target path> <url> [<sha256>|- [<refresh token>]]}.
   * A file with a refresh token is kept only when {@code <target>.source} holds that token.
   */
  public static final String DOWNLOAD_SCRIPT = """
      set -eu
      # Credentials (HF_TOKEN, AWS_*) come from the Model's Secret through the environment and reach curl on its
      # standard input as a config file, never as arguments: argv is visible to every process on the node. The URL
      # goes the same way, since a pre-signed URL's query is a credential too; logs show it without query.
      quoted() { printf '%s' "$1" | sed 's/[\\\\"]/\\\\&/g'; }
      shown() {
        u="${1%%[?#]*}"
        case "$u" in
          http://*|https://*) scheme="${u%%://*}"; rest="${u#*://}"; host="${rest%%/*}"; path="${rest#"$host"}"
            echo "$scheme://${host##*@}$path" ;;
          *) echo "$u" ;;
        esac
      }
      fetch() {
        case "$2" in
          s3://*)
            rest="${2#s3://}"; bucket="${rest%%/*}"; key="${rest#*/}"
            if [ -n "${AWS_ENDPOINT_URL:-}" ]; then url="${AWS_ENDPOINT_URL%/}/$bucket/$key"
            else url="https://$bucket.s3.${AWS_REGION:-us-east-1}.amazonaws.com/$key"; fi
            if [ -n "${AWS_ACCESS_KEY_ID:-}" ]; then
              {
                printf 'url = "%s"\\n' "$(quoted "$url")"
                printf 'aws-sigv4 = "aws:amz:%s:s3"\\n' "$(quoted "${AWS_REGION:-us-east-1}")"
                printf 'user = "%s:%s"\\n' "$(quoted "$AWS_ACCESS_KEY_ID")" "$(quoted "${AWS_SECRET_ACCESS_KEY:-}")"
                if [ -n "${AWS_SESSION_TOKEN:-}" ]; then
                  printf 'header = "x-amz-security-token: %s"\\n' "$(quoted "$AWS_SESSION_TOKEN")"
                fi
              } | curl -fsSL --retry 3 -D "$1.headers" --config - -o "$1"
            else
              printf 'url = "%s"\\n' "$(quoted "$url")" | curl -fsSL --retry 3 -D "$1.headers" --config - -o "$1"
            fi ;;
          *)
            {
              printf 'url = "%s"\\n' "$(quoted "$2")"
              if [ -n "${HF_TOKEN:-}" ]; then
                printf 'header = "Authorization: Bearer %s"\\n' "$(quoted "$HF_TOKEN")"
              fi
            } | curl -fsSL --retry 3 -D "$1.headers" --config - -o "$1" ;;
        esac
      }
      # Progress: "model-downloader: progress <name> <bytes so far> <total bytes or ->" every PROGRESS_INTERVAL
      # seconds while curl writes $1 and once at the end. The total is the last response's Content-Length in the
      # header dump of the same curl call (a redirect's headers come first); the dump holds no request header.
      total() {
        tr -d '\\r' < "$1.headers" 2>/dev/null | awk '/^HTTP\\// { n = "" }
          tolower($1) == "content-length:" { n = $2 } END { print (n == "" ? "-" : n) }'
      }
      progress() {
        size=0
        if [ -f "$1" ]; then size=$(wc -c < "$1" | tr -d ' '); fi
        echo "model-downloader: progress $2 $size $(total "$1")"
      }
      # The watcher runs while $1.watch exists; the caller removes it and waits, so none outlives the download.
      watch_progress() {
        ticks=0
        while [ -e "$1.watch" ]; do
          sleep 1
          ticks=$((ticks + 1))
          if [ $((ticks % ${PROGRESS_INTERVAL:-5})) -eq 0 ] && [ -e "$1.watch" ]; then progress "$1" "$2"; fi
        done
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
        echo "downloading $(shown "$url")"
        : > "$target.tmp.watch"
        watch_progress "$target.tmp" "${target##*/}" &
        watcher=$!
        status=0
        fetch "$target.tmp" "$url" || status=$?
        rm -f "$target.tmp.watch"
        wait "$watcher" || true
        if [ "$status" -ne 0 ]; then rm -f "$target.tmp.headers"; exit "$status"; fi
        progress "$target.tmp" "${target##*/}"
        rm -f "$target.tmp.headers"
        if [ -n "${sha:-}" ]; then echo "$sha  $target.tmp" | sha256sum -c -; fi
        mv "$target.tmp" "$target"
        if [ -n "${token:-}" ]; then echo "$token" > "$target.source"; fi
      done
      """;

  /** The verifier's script; reads MODEL_CHECKSUMS lines of {@code <sha256>  <path>} (sha256sum's check format). */
  public static final String VERIFY_SCRIPT = """
      set -eu
      echo "verifying the SHA-256 of the mounted model file(s)"
      echo "$MODEL_CHECKSUMS" | sha256sum -c -
      """;

  /** The cache check's script: the pod's user must be able to create files in the cache. */
  public static final String CACHE_CHECK_SCRIPT = """
      probe="$MODELS/.modelplane-write-check-$$"
      if touch "$probe" 2>/dev/null; then rm -f "$probe"; exit 0; fi
      echo "$MODELS is not writable by user $(id -u) (groups $(id -G)): the cache volume does not apply the pod's \\
      fsGroup; use a storage class whose CSI driver supports fsGroup, or set spec.podSecurityContext so the pod \\
      runs as the volume's owner" >&2
      exit 1
      """.replace("$MODELS", ModelLayout.CACHE_MOUNT);

  private ModelStaging() {
  }

  /**
   * One file for the downloader.
   *
   * @param target absolute path in the pod
   * @param url where it comes from
   * @param sha256 expected checksum, or null
   * @param refreshToken for the primary file of a {@code refreshPolicy: OnChange} Model: the source fingerprint the
   *     cached copy must have been downloaded with, else it is downloaded again; null keeps any cached copy
   */
  public record Download(String target, String url, String sha256, String refreshToken) {
    public Download(String target, String url, String sha256) {
      this(target, url, sha256, null);
    }
  }

  /**
   * The files the downloader fetches for one Model: its layout's downloads, the primary one with the checksum and the
   * refresh token.
   */
  public static List<Download> downloadsOf(ModelLayout layout, String sha256, String refreshToken) {
    if (layout.staging() != ModelLayout.Staging.DOWNLOAD) {
      return List.of();
    }
    List<Download> downloads = new ArrayList<>();
    boolean first = true;
    for (ModelLayout.Download d : layout.downloads()) {
      downloads.add(new Download(layout.modelDir() + "/" + d.name(), d.url(),
          first && sha256 != null && !sha256.isBlank() ? sha256.toLowerCase(java.util.Locale.ROOT) : null,
          first ? refreshToken : null));
      first = false;
    }
    return List.copyOf(downloads);
  }

  /**
   * The {@code model-cache-prep} container: checks that the pod's user can write the cache claim, which the kubelet
   * makes group-writable for the pod's {@code fsGroup}; fails with what to do when the volume's driver does not apply
   * fsGroup, instead of a download failing later. Runs as the pod's non-root user, without capabilities.
   */
  public static Container cachePrep(String image) {
    return new ContainerBuilder().withName("model-cache-prep").withImage(image)
        .withCommand("sh", "-c", CACHE_CHECK_SCRIPT)
        .withVolumeMounts(mount(CACHE_VOLUME, ModelLayout.CACHE_MOUNT, false))
        .withSecurityContext(SecurityDefaults.container())
        .withTerminationMessagePolicy("FallbackToLogsOnError")
        .build();
  }

  /** The {@code model-downloader} container: fetches {@code downloads} into the cache mounted at /models. */
  public static Container downloader(String image, ModelSpec spec, ModelLayout layout, List<Download> downloads,
      List<io.fabric8.kubernetes.api.model.LocalObjectReference> secrets) {
    List<EnvVar> env = new ArrayList<>();
    env.add(env("MODEL_SOURCE", spec.source()));
    if (layout.staging() == ModelLayout.Staging.DOWNLOAD) {
      env.add(env("CACHE_DIR", layout.modelDir()));
      env.add(env("MODEL_PATH", downloads.getFirst().target()));
    }
    env.add(env("MODEL_FILES", downloads.stream().map(ModelStaging::line)
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
        .withSecurityContext(SecurityDefaults.container())
        .withTerminationMessagePolicy("FallbackToLogsOnError")
        .build();
  }

  /** One MODEL_FILES line: {@code target url}, then the checksum ({@code -} for none) when either follows. */
  public static String line(Download d) {
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

  public static EnvVar env(String name, String value) {
    return new EnvVarBuilder().withName(name).withValue(value).build();
  }

  public static VolumeMount mount(String volume, String path, boolean readOnly) {
    return new VolumeMountBuilder().withName(volume).withMountPath(path).withReadOnly(readOnly ? true : null).build();
  }

  /** The namespace's shared cache claim, as serving pods and prefetch Jobs use it (no owner, kept). */
  public static PersistentVolumeClaim sharedCacheClaim(String namespace, OperatorSettings settings) {
    return cacheClaim(SHARED_CACHE_CLAIM, namespace, Map.of(OperatorLabels.MANAGED_BY,
        OperatorLabels.MANAGED_BY_VALUE), settings);
  }

  /** A model-cache claim sized and classed by the operator's settings. */
  public static PersistentVolumeClaim cacheClaim(String name, String namespace, Map<String, String> labels,
      OperatorSettings settings) {
    OperatorSettings.ModelCacheSettings cache = settings.modelCache();
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata()
          .withName(name)
          .withNamespace(namespace)
          .withLabels(labels)
        .endMetadata()
        .withNewSpec()
          .withAccessModes(cache.accessMode())
          .withStorageClassName(cache.storageClassName())
          .withNewResources().addToRequests("storage", new Quantity(cache.size())).endResources()
        .endSpec()
        .build();
  }
}
