package dev.modelplane.operator.modelsource;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A parsed OME storage URI ({@code spec.storage.storageUri} of a BaseModel, ClusterBaseModel or FineTunedWeight, and
 * the dataset and output locations of a BenchmarkJob): one record per scheme OME writes. {@link #toString()} gives
 * the canonical form, which {@link #parse} reads back to an equal value; defaults ({@code @main} on hf://,
 * {@code @latest} on github://) are left out of it, and the Azure endpoint form becomes {@code az://account/...}.
 */
public sealed interface StorageUri {
  /** Every scheme OME writes, as written before {@code ://} (lower case only, as OME compares them). */
  List<String> SCHEMES = List.of("oci", "pvc", "hf", "s3", "az", "gs", "github", "local", "vendor");

  /** The scheme without {@code ://}, e.g. {@code hf}. */
  String scheme();

  /**
   * Parses {@code uri}; {@code field} is the path of the field it came from (e.g. {@code spec.storage.storageUri})
   * and starts every error message.
   *
   * @throws StorageUriException when the URI is empty, has an unknown scheme or does not follow its scheme's form
   */
  static StorageUri parse(String uri, String field) {
    return StorageUriParser.parse(uri, field);
  }

  /**
   * OCI Object Storage: {@code oci://n/{namespace}/b/{bucket}/o/{prefix}}.
   *
   * @param prefix object name prefix; empty for the whole bucket
   */
  record Oci(String namespace, String bucket, String prefix) implements StorageUri {
    public Oci {
      Objects.requireNonNull(namespace);
      Objects.requireNonNull(bucket);
      Objects.requireNonNull(prefix);
    }

    @Override
    public String scheme() {
      return "oci";
    }

    @Override
    public String toString() {
      return "oci://n/" + namespace + "/b/" + bucket + "/o/" + prefix;
    }
  }

  /**
   * A PersistentVolumeClaim: {@code pvc://{claim}/{subPath}} or {@code pvc://{namespace}:{claim}/{subPath}}.
   *
   * @param namespace the claim's namespace when written; absent means the model's own namespace
   */
  record Pvc(Optional<String> namespace, String claim, String subPath) implements StorageUri {
    public Pvc {
      Objects.requireNonNull(namespace);
      Objects.requireNonNull(claim);
      Objects.requireNonNull(subPath);
    }

    @Override
    public String scheme() {
      return "pvc";
    }

    @Override
    public String toString() {
      return "pvc://" + namespace.map(ns -> ns + ":").orElse("") + claim + "/" + subPath;
    }
  }

  /**
   * A Hugging Face Hub repository: {@code hf://{org}/{model}[@revision]}.
   *
   * @param repoId repository id as written, e.g. {@code meta-llama/Llama-3.1-8B-Instruct}, {@code gpt2}, or with a
   *     repository type, {@code datasets/org/name}
   * @param revision branch, tag or commit; {@value #DEFAULT_REVISION} when not written
   */
  record HuggingFace(String repoId, String revision) implements StorageUri {
    /** The revision OME downloads when the URI names none. */
    public static final String DEFAULT_REVISION = "main";

    public HuggingFace {
      Objects.requireNonNull(repoId);
      Objects.requireNonNull(revision);
    }

    @Override
    public String scheme() {
      return "hf";
    }

    @Override
    public String toString() {
      return "hf://" + repoId + (revision.equals(DEFAULT_REVISION) ? "" : "@" + revision);
    }
  }

  /**
   * Amazon S3: {@code s3://{bucket}[@region]/{prefix}}.
   *
   * @param prefix key prefix; empty for the whole bucket
   */
  record S3(String bucket, Optional<String> region, String prefix) implements StorageUri {
    public S3 {
      Objects.requireNonNull(bucket);
      Objects.requireNonNull(region);
      Objects.requireNonNull(prefix);
    }

    @Override
    public String scheme() {
      return "s3";
    }

    @Override
    public String toString() {
      return "s3://" + bucket + region.map(r -> "@" + r).orElse("") + (prefix.isEmpty() ? "" : "/" + prefix);
    }
  }

  /**
   * Azure Blob Storage: {@code az://{account}/{container}/{blobPath}}, also written
   * {@code az://{account}.blob.core.windows.net/{container}/{blobPath}}.
   *
   * @param blobPath blob name or prefix; empty for the whole container
   */
  record Azure(String account, String container, String blobPath) implements StorageUri {
    public Azure {
      Objects.requireNonNull(account);
      Objects.requireNonNull(container);
      Objects.requireNonNull(blobPath);
    }

    @Override
    public String scheme() {
      return "az";
    }

    @Override
    public String toString() {
      return "az://" + account + "/" + container + (blobPath.isEmpty() ? "" : "/" + blobPath);
    }
  }

  /**
   * Google Cloud Storage: {@code gs://{bucket}/{object}}.
   *
   * @param object object name or prefix; empty for the whole bucket
   */
  record Gcs(String bucket, String object) implements StorageUri {
    public Gcs {
      Objects.requireNonNull(bucket);
      Objects.requireNonNull(object);
    }

    @Override
    public String scheme() {
      return "gs";
    }

    @Override
    public String toString() {
      return "gs://" + bucket + (object.isEmpty() ? "" : "/" + object);
    }
  }

  /**
   * A GitHub release: {@code github://{owner}/{repository}[@tag]}.
   *
   * @param tag release tag; {@value #LATEST} when not written
   */
  record GitHub(String owner, String repository, String tag) implements StorageUri {
    /** The tag OME uses when the URI names none: the newest release. */
    public static final String LATEST = "latest";

    public GitHub {
      Objects.requireNonNull(owner);
      Objects.requireNonNull(repository);
      Objects.requireNonNull(tag);
    }

    @Override
    public String scheme() {
      return "github";
    }

    @Override
    public String toString() {
      return "github://" + owner + "/" + repository + (tag.equals(LATEST) ? "" : "@" + tag);
    }
  }

  /**
   * Files already on the node: {@code local://{path}}; {@code local:///models/x} is the absolute path
   * {@code /models/x}, {@code local://./x} a relative one.
   */
  record Local(String path) implements StorageUri {
    public Local {
      Objects.requireNonNull(path);
    }

    @Override
    public String scheme() {
      return "local";
    }

    @Override
    public String toString() {
      return "local://" + path;
    }
  }

  /** Files a vendor provides by its own means: {@code vendor://{vendor}/{resourceType}/{resourcePath}}. */
  record Vendor(String vendor, String resourceType, String resourcePath) implements StorageUri {
    public Vendor {
      Objects.requireNonNull(vendor);
      Objects.requireNonNull(resourceType);
      Objects.requireNonNull(resourcePath);
    }

    @Override
    public String scheme() {
      return "vendor";
    }

    @Override
    public String toString() {
      return "vendor://" + vendor + "/" + resourceType + "/" + resourcePath;
    }
  }
}
