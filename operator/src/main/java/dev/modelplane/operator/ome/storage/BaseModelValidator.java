package dev.modelplane.operator.ome.storage;

import dev.modelplane.api.ome.v1beta1.BaseModelSpec;
import dev.modelplane.api.ome.v1beta1.StorageSpec;
import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.modelsource.StorageUri;
import dev.modelplane.operator.modelsource.StorageUriException;
import java.util.ArrayList;
import java.util.List;

/**
 * What is wrong with a BaseModel's storage before any agent looks at it: a URI that does not parse, a scheme the model
 * agent cannot fetch. The node directory is {@link ModelPaths}' to check. Each problem names its field; none throws.
 */
public final class BaseModelValidator {
  public static final String URI_FIELD = "spec.storage.storageUri";
  public static final String PATH_FIELD = "spec.storage.path";

  private BaseModelValidator() {
  }

  /** How the model agent obtains a scheme's files on a node. */
  public enum Handling {
    /** Copied onto the node under {@code storage.path}. */
    DOWNLOAD,
    /** Already there (a node directory, or a claim the pods mount): checked and parsed, never copied. */
    VERIFY,
    /** Not implemented by the agent: the model fails with reason {@code UnsupportedStorage}. */
    UNSUPPORTED
  }

  /** How the agent treats a parsed URI. */
  public static Handling handling(StorageUri uri) {
    return switch (uri) {
      case StorageUri.HuggingFace hf -> Handling.DOWNLOAD;
      case StorageUri.S3 s3 -> Handling.DOWNLOAD;
      case StorageUri.Gcs gs -> Handling.DOWNLOAD;
      case StorageUri.GitHub gh -> Handling.DOWNLOAD;
      case StorageUri.Local local -> Handling.VERIFY;
      case StorageUri.Pvc pvc -> Handling.VERIFY;
      default -> Handling.UNSUPPORTED;
    };
  }

  /** The problems of a model's spec; empty when the agents can act on it. Every problem here is fatal. */
  public static List<FieldProblem> validate(BaseModelSpec spec, boolean clusterScoped) {
    return validate(spec == null ? null : spec.storage(), clusterScoped);
  }

  /**
   * The problems of a model's storage, the same for every node (the agents add what depends on the node: placement,
   * allowed directories); empty when the agents can act on it. Every problem here is fatal.
   */
  public static List<FieldProblem> validate(StorageSpec storage, boolean clusterScoped) {
    List<FieldProblem> problems = new ArrayList<>();
    if (storage == null) {
      problems.add(FieldProblem.fatal("spec.storage", "MissingStorage", "a base model needs spec.storage"));
      return problems;
    }
    StorageUri uri;
    try {
      uri = StorageUri.parse(storage.storageUri(), URI_FIELD);
    } catch (StorageUriException e) {
      problems.add(FieldProblem.fatal(URI_FIELD, "InvalidStorageUri", stripField(e.getMessage())));
      return problems;
    }
    switch (handling(uri)) {
      case UNSUPPORTED -> problems.add(FieldProblem.fatal(URI_FIELD, "UnsupportedStorage", "the model agent cannot "
          + "fetch " + uri.scheme() + ":// sources; supported: hf://, s3://, gs:// and github:// (downloaded), local:// and pvc:// "
          + "(used in place)"));
      case DOWNLOAD -> {
        // The directory (derived when spec.storage.path is empty) is ModelPaths' to check: it depends on the roots
        // and on the other models.
      }
      case VERIFY -> {
        if (clusterScoped && uri instanceof StorageUri.Pvc pvc && pvc.namespace().isEmpty()) {
          problems.add(FieldProblem.fatal(URI_FIELD, "InvalidStorageUri", "a ClusterBaseModel's pvc:// URI must "
              + "name the claim's namespace, as pvc://<namespace>:<claim>/<path>"));
        }
      }
    }
    return problems;
  }

  /** The parser's messages start with the field; the problem carries the field itself. */
  private static String stripField(String message) {
    String prefix = URI_FIELD + ": ";
    return message != null && message.startsWith(prefix) ? message.substring(prefix.length()) : message;
  }
}
