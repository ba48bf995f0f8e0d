package dev.modelplane.operator.ome.benchmark;

import dev.modelplane.api.ome.v1beta1.StorageSpec;
import dev.modelplane.operator.ProjectVersion;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a storage location adds to the genai-bench container: arguments, environment, volumes and mounts. Credentials
 * only come from the Secret, as environment variables genai-bench reads itself (its options' own variables) or as
 * mounted files: never as arguments, where every process of the node could read them.
 *
 * @param args genai-bench arguments
 * @param env environment variables of the genai-bench container
 * @param volumes pod volumes
 * @param mounts mounts of the genai-bench container
 * @param fetch a container to run before genai-bench that downloads the dataset from a store, or null
 */
record StorageWiring(List<String> args, List<EnvVar> env, List<Volume> volumes, List<VolumeMount> mounts,
    Container fetch) {
  /** The volume the results are written to, mounted by both containers. */
  static final String RESULTS_VOLUME = "results";
  /** Where the results volume is mounted. */
  static final String RESULTS_DIR = "/benchmark-results";
  /** Where a pvc:// dataset's claim is mounted. */
  static final String DATASET_DIR = "/benchmark-dataset";
  static final String OCI_CONFIG_DIR = "/etc/oci";
  static final String GCP_CREDENTIALS_DIR = "/etc/gcp";
  /** Storage parameters that hold secrets: they belong in the Secret named by {@code key}, never in the spec. */
  private static final Set<String> SECRET_PARAMETERS = Set.of("aws_access_key_id", "aws_secret_access_key",
      "azure_account_key", "azure_connection_string", "azure_sas_token", "github_token", "security_token");
  private static final Pattern PVC = Pattern.compile("^pvc://(?:([^/:]+):)?([^/]+)(?:/(.*))?$");
  private static final Pattern OCI = Pattern.compile("^oci://n/([^/]+)/b/([^/]+)(?:/o/(.*))?$");
  private static final Pattern S3 = Pattern.compile("^s3://([^/@]+)(?:@([^/]+))?(?:/(.*))?$");
  private static final Pattern AZ = Pattern.compile("^az://([^/]+)/([^/]+)(?:/(.*))?$");
  private static final Pattern GS = Pattern.compile("^gs://([^/]+)(?:/(.*))?$");
  private static final Pattern GITHUB = Pattern.compile("^github://([^/@]+)/([^/@]+)(?:@(.+))?$");
  private static final Pattern HF = Pattern.compile("^hf://([^@]+)(?:@.*)?$");
  private static final Pattern STORES = Pattern.compile("^(s3|oci|gs|az|github)://");
  /** Dataset parameters that choose columns for genai-bench rather than configure the store. */
  private static final Set<String> COLUMN_PARAMETERS = Set.of("prompt_column", "image_column");
  /** The container that downloads a dataset from a store. */
  static final String FETCH_CONTAINER = "dataset";
  /** Where a dataset's credentials Secret is mounted for it. */
  static final String DATASET_CREDENTIALS_DIR = "/etc/modelplane/dataset-credentials";

  /**
   * The results location: a {@code pvc://} claim of the benchmark's namespace becomes the results volume, every other
   * scheme an emptyDir plus genai-bench's upload flags.
   *
   * @throws BenchmarkConfigException for a malformed or unsupported URI or a secret in the parameters
   */
  static StorageWiring output(StorageSpec output, String namespace) {
    String uri = output.storageUri();
    Map<String, String> params = output.parameters() == null ? Map.of() : output.parameters();
    for (String p : params.keySet()) {
      if (SECRET_PARAMETERS.contains(p)) {
        throw new BenchmarkConfigException("outputLocation.parameters." + p + " holds a secret: put it into the "
            + "Secret named by outputLocation.key instead");
      }
    }
    Builder b = new Builder();
    String scheme = uri.contains("://") ? uri.substring(0, uri.indexOf("://")) : uri;
    switch (scheme) {
      case "pvc" -> {
        Matcher m = match(PVC, uri, "outputLocation", "pvc://[<namespace>:]<claim>/<path>");
        if (m.group(1) != null && !m.group(1).equals(namespace)) {
          throw new BenchmarkConfigException("outputLocation " + uri + " names a claim in namespace " + m.group(1)
              + ": the claim must be in the benchmark's namespace " + namespace);
        }
        b.volumes.add(new VolumeBuilder().withName(RESULTS_VOLUME).withNewPersistentVolumeClaim()
            .withClaimName(m.group(2)).endPersistentVolumeClaim().build());
        b.subPath = m.group(3) == null || m.group(3).isEmpty() ? null : m.group(3);
      }
      case "oci" -> {
        Matcher m = match(OCI, uri, "outputLocation", "oci://n/<namespace>/b/<bucket>/o/<prefix>");
        b.args.addAll(List.of("--upload-results", "--storage-provider", "oci", "--namespace", m.group(1),
            "--storage-bucket", m.group(2), "--storage-prefix", m.group(3) == null ? "" : m.group(3)));
        param(b, params, "auth", "--storage-auth-type");
        param(b, params, "profile", "--profile");
        param(b, params, "region", "--region");
        if (params.containsKey("config_file")) {
          param(b, params, "config_file", "--config-file");
        } else if (output.key() != null) {
          secretVolume(b, "oci-config", output.key(), OCI_CONFIG_DIR);
          b.args.addAll(List.of("--config-file", OCI_CONFIG_DIR + "/config"));
        }
      }
      case "s3" -> {
        Matcher m = match(S3, uri, "outputLocation", "s3://<bucket>[@<region>]/<prefix>");
        b.args.addAll(List.of("--upload-results", "--storage-provider", "aws", "--storage-bucket", m.group(1)));
        prefix(b, m.group(3));
        param(b, params, "aws_profile", "--storage-aws-profile");
        String region = params.getOrDefault("aws_region", m.group(2));
        if (region != null) {
          b.args.addAll(List.of("--storage-aws-region", region));
        }
        if (output.key() != null) {
          secretEnv(b, output.key(), "AWS_ACCESS_KEY_ID");
          secretEnv(b, output.key(), "AWS_SECRET_ACCESS_KEY");
        }
      }
      case "az" -> {
        Matcher m = match(AZ, uri, "outputLocation", "az://<account>/<container>/<prefix>");
        b.args.addAll(List.of("--upload-results", "--storage-provider", "azure", "--storage-bucket", m.group(2)));
        prefix(b, m.group(3));
        b.args.addAll(List.of("--storage-azure-account-name", params.getOrDefault("azure_account_name",
            m.group(1))));
        if (output.key() != null) {
          secretEnv(b, output.key(), "AZURE_STORAGE_CONNECTION_STRING");
        }
      }
      case "gs" -> {
        Matcher m = match(GS, uri, "outputLocation", "gs://<bucket>/<prefix>");
        b.args.addAll(List.of("--upload-results", "--storage-provider", "gcp", "--storage-bucket", m.group(1)));
        prefix(b, m.group(2));
        param(b, params, "gcp_project_id", "--storage-gcp-project-id");
        if (params.containsKey("gcp_credentials_path")) {
          param(b, params, "gcp_credentials_path", "--storage-gcp-credentials-path");
        } else if (output.key() != null) {
          secretVolume(b, "gcp-credentials", output.key(), GCP_CREDENTIALS_DIR);
          b.args.addAll(List.of("--storage-gcp-credentials-path", GCP_CREDENTIALS_DIR + "/credentials.json"));
        }
      }
      case "github" -> {
        Matcher m = match(GITHUB, uri, "outputLocation", "github://<owner>/<repo>");
        b.args.addAll(List.of("--upload-results", "--storage-provider", "github", "--github-owner", m.group(1),
            "--github-repo", m.group(2)));
        if (output.key() != null) {
          secretEnv(b, output.key(), "GITHUB_TOKEN");
        }
      }
      default -> throw new BenchmarkConfigException("outputLocation " + uri + " is not supported: use pvc://, "
          + "oci://, s3://, az://, gs:// or github://");
    }
    if (b.volumes.stream().noneMatch(v -> RESULTS_VOLUME.equals(v.getName()))) {
      b.volumes.add(new VolumeBuilder().withName(RESULTS_VOLUME).withNewEmptyDir().endEmptyDir().build());
    }
    b.mounts.add(0, new VolumeMountBuilder().withName(RESULTS_VOLUME).withMountPath(RESULTS_DIR)
        .withSubPath(b.subPath).build());
    return b.build();
  }

  /**
   * The dataset: a Hugging Face dataset by its Hub id ({@code hf://[datasets/]<org>/<name>}), a {@code pvc://}
   * claim or a {@code local://} node directory mounted read-only, or files in a store ({@code s3://}, {@code oci://},
   * {@code gs://}, {@code az://}, {@code github://}) that a {@code modelplane fetch} container on modelplane's image
   * downloads into an emptyDir first, with the credentials of the Secret {@code dataset.key} mounted as files and
   * {@code dataset.parameters} as its storage parameters; {@code prompt_column} and {@code image_column}
   * parameters pick the columns.
   *
   * @throws BenchmarkConfigException for another scheme or a malformed URI
   */
  static StorageWiring dataset(StorageSpec dataset, String namespace) {
    Builder b = new Builder();
    String uri = dataset.storageUri();
    String path;
    if (uri.startsWith("hf://")) {
      path = match(HF, uri, "dataset", "hf://<org>/<dataset>").group(1).replaceFirst("^datasets/", "");
    } else if (uri.startsWith("pvc://")) {
      Matcher m = match(PVC, uri, "dataset", "pvc://[<namespace>:]<claim>/<path>");
      if (m.group(1) != null && !m.group(1).equals(namespace)) {
        throw new BenchmarkConfigException("dataset " + uri + " names a claim in namespace " + m.group(1)
            + ": the claim must be in the benchmark's namespace " + namespace);
      }
      b.volumes.add(new VolumeBuilder().withName("dataset").withNewPersistentVolumeClaim()
          .withClaimName(m.group(2)).withReadOnly(true).endPersistentVolumeClaim().build());
      b.mounts.add(new VolumeMountBuilder().withName("dataset").withMountPath(DATASET_DIR).withReadOnly(true)
          .build());
      path = m.group(3) == null || m.group(3).isEmpty() ? DATASET_DIR : DATASET_DIR + "/" + m.group(3);
    } else if (uri.startsWith("local://")) {
      path = "/" + uri.substring("local://".length()).replaceFirst("^/+", "");
      if (path.equals("/")) {
        throw new BenchmarkConfigException("dataset " + uri + " is not a valid local:// URI: expected "
            + "local://<path>");
      }
      b.volumes.add(new VolumeBuilder().withName("dataset").withNewHostPath().withPath(path).endHostPath().build());
      b.mounts.add(new VolumeMountBuilder().withName("dataset").withMountPath(path).withReadOnly(true).build());
    } else if (STORES.matcher(uri).find()) {
      b.fetch = fetchContainer(dataset, b);
      path = DATASET_DIR;
    } else {
      throw new BenchmarkConfigException("dataset " + uri + " is not supported: genai-bench reads datasets from "
          + "the Hugging Face Hub (hf://), a claim (pvc://), the node (local://) or a store (s3://, oci://, gs://, "
          + "az://, github://)");
    }
    b.args.addAll(List.of("--dataset-path", path));
    Map<String, String> params = dataset.parameters() == null ? Map.of() : dataset.parameters();
    param(b, params, "prompt_column", "--dataset-prompt-column");
    param(b, params, "image_column", "--dataset-image-column");
    return b.build();
  }

  /** The container that downloads a store's dataset into the dataset volume, which genai-bench then reads. */
  private static Container fetchContainer(StorageSpec dataset, Builder b) {
    List<String> args = new ArrayList<>(List.of("fetch", "--storage-uri", dataset.storageUri(), "--dest",
        DATASET_DIR));
    Map<String, String> params = dataset.parameters() == null ? Map.of() : dataset.parameters();
    for (Map.Entry<String, String> p : new java.util.TreeMap<>(params).entrySet()) {
      if (!COLUMN_PARAMETERS.contains(p.getKey())) {
        args.addAll(List.of("--parameter", p.getKey() + "=" + p.getValue()));
      }
    }
    List<VolumeMount> mounts = new ArrayList<>(List.of(new VolumeMountBuilder().withName("dataset")
        .withMountPath(DATASET_DIR).build()));
    b.volumes.add(new VolumeBuilder().withName("dataset").withNewEmptyDir().endEmptyDir().build());
    b.mounts.add(new VolumeMountBuilder().withName("dataset").withMountPath(DATASET_DIR).withReadOnly(true).build());
    if (dataset.key() != null && !dataset.key().isBlank()) {
      b.volumes.add(new VolumeBuilder().withName("dataset-credentials").withNewSecret()
          .withSecretName(dataset.key()).endSecret().build());
      mounts.add(new VolumeMountBuilder().withName("dataset-credentials").withMountPath(DATASET_CREDENTIALS_DIR)
          .withReadOnly(true).build());
      args.addAll(List.of("--secret-dir", DATASET_CREDENTIALS_DIR));
    }
    return new ContainerBuilder().withName(FETCH_CONTAINER).withImage(ProjectVersion.image()).withArgs(args)
        .withVolumeMounts(mounts).withNewResources()
        .withRequests(Map.of("cpu", new Quantity("100m"), "memory", new Quantity("256Mi")))
        .withLimits(Map.of("memory", new Quantity("512Mi"))).endResources()
        .withTerminationMessagePolicy("FallbackToLogsOnError").build();
  }

  private static Matcher match(Pattern p, String uri, String field, String form) {
    Matcher m = p.matcher(uri);
    if (!m.matches()) {
      throw new BenchmarkConfigException(field + " " + uri + " is not a valid URI: expected " + form);
    }
    return m;
  }

  private static void param(Builder b, Map<String, String> params, String key, String flag) {
    String value = params.get(key);
    if (value != null) {
      b.args.addAll(List.of(flag, value));
    }
  }

  private static void prefix(Builder b, String prefix) {
    if (prefix != null && !prefix.isEmpty()) {
      b.args.addAll(List.of("--storage-prefix", prefix));
    }
  }

  /**
   * An environment variable from the Secret's key of the same name. genai-bench's storage options read it by that name
   * ({@code --storage-aws-access-key-id} from {@code AWS_ACCESS_KEY_ID}, {@code --storage-aws-secret-access-key} from
   * {@code AWS_SECRET_ACCESS_KEY}, {@code --storage-azure-connection-string} from
   * {@code AZURE_STORAGE_CONNECTION_STRING}, {@code --github-token} from {@code GITHUB_TOKEN}), so no flag is passed.
   */
  private static void secretEnv(Builder b, String secret, String key) {
    b.env.add(new EnvVarBuilder().withName(key).withNewValueFrom().withNewSecretKeyRef().withName(secret)
        .withKey(key).endSecretKeyRef().endValueFrom().build());
  }

  private static void secretVolume(Builder b, String name, String secret, String dir) {
    b.volumes.add(new VolumeBuilder().withName(name).withNewSecret().withSecretName(secret).endSecret().build());
    b.mounts.add(new VolumeMountBuilder().withName(name).withMountPath(dir).withReadOnly(true).build());
  }

  private static final class Builder {
    private final List<String> args = new ArrayList<>();
    private final List<EnvVar> env = new ArrayList<>();
    private final List<Volume> volumes = new ArrayList<>();
    private final List<VolumeMount> mounts = new ArrayList<>();
    private String subPath;
    private Container fetch;

    StorageWiring build() {
      return new StorageWiring(List.copyOf(args), List.copyOf(env), List.copyOf(volumes), List.copyOf(mounts),
          fetch);
    }
  }
}
