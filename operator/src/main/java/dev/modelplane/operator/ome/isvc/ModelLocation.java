package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.StorageSpec;
import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.modelsource.StorageUri;
import dev.modelplane.operator.modelsource.StorageUriException;

/**
 * Where a model's files are for a serving pod: a directory the model agent fills on the nodes it labels Ready, or a
 * PersistentVolumeClaim mounted directly.
 */
public sealed interface ModelLocation {
  /** Where a claim-backed model is mounted in serving containers, as in OME. */
  String CLAIM_MOUNT = "/opt/ml/model";

  /** The path serving containers read the model from ({@code MODEL_PATH}). */
  String containerPath();

  /**
   * A directory on the node, filled by the model agent (or, for {@code local://}, already there).
   *
   * @param path the directory on the node, mounted read-only at the same path
   * @param nodeLabel the label the agent sets to {@code Ready} on nodes holding a complete copy
   */
  record HostDirectory(String path, String nodeLabel) implements ModelLocation {
    @Override
    public String containerPath() {
      return path;
    }
  }

  /**
   * A PersistentVolumeClaim in the InferenceService's namespace.
   *
   * @param claim the claim's name
   * @param subPath the directory inside the volume, or empty for its root
   */
  record Claim(String claim, String subPath) implements ModelLocation {
    @Override
    public String containerPath() {
      return CLAIM_MOUNT;
    }
  }

  /**
   * The location of a model or fine-tuned weight with {@code storage}, for a pod in {@code namespace}.
   *
   * <p>A node directory is only ever the one {@code ModelPaths} decided ({@code decidedDir}: {@code spec.storage.path}
   * or the {@code local://} path checked against the roots and other models, or derived when it is empty), never a
   * path taken from the spec here: a model whose storage the model agent does not place on the node
   * ({@code oci://}, {@code az://}, for which {@code ModelPaths} decides no
   * directory) gets no hostPath and cannot be served from files.
   *
   * @param field the storage field, for messages
   * @param nodeLabel the agent's node label for it
   * @param decidedDir the node directory {@code ModelPaths} decided, or null when it decided none
   * @throws IllegalArgumentException with a {@link FieldProblem}-ready message when the files cannot be reached
   */
  static ModelLocation of(StorageSpec storage, String namespace, String field, String nodeLabel,
      String decidedDir) {
    if (storage == null || storage.storageUri() == null) {
      throw new IllegalArgumentException(field + ".storageUri: is required");
    }
    StorageUri uri;
    try {
      uri = StorageUri.parse(storage.storageUri(), field + ".storageUri");
    } catch (StorageUriException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    return switch (uri) {
      case StorageUri.Pvc pvc -> {
        if (pvc.namespace().isPresent() && !pvc.namespace().get().equals(namespace)) {
          throw new IllegalArgumentException(field + ".storageUri: the claim " + pvc.claim() + " is in namespace "
              + pvc.namespace().get() + ", but a pod can only mount claims of its own namespace (" + namespace + ")");
        }
        yield new Claim(pvc.claim(), pvc.subPath() == null ? "" : pvc.subPath());
      }
      case StorageUri.Vendor vendor -> throw new IllegalArgumentException(field + ".storageUri: vendor:// models are "
          + "provided by their vendor's image; they have no files to mount");
      default -> {
        if (decidedDir == null) {
          throw new IllegalArgumentException(field + ".storageUri: " + uri.scheme() + ":// models have no directory "
              + "on the node the operator may mount (the model agent does not place them there), so no node "
              + "directory is mounted; use hf://, s3://, gs://, github://, local:// or pvc:// storage");
        }
        yield new HostDirectory(decidedDir, nodeLabel);
      }
    };
  }
}
