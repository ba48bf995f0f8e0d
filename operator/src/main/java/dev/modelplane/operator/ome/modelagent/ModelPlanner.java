package dev.modelplane.operator.ome.modelagent;

import dev.modelplane.api.ome.v1beta1.StorageSpec;
import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.modelsource.StorageUri;
import dev.modelplane.operator.ome.basemodel.BaseModelValidator;
import dev.modelplane.operator.modelsource.StorageUriException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides, without I/O, what the agent does for a model on its node: remove it, fail it (with a reason and a message
 * naming the field), download it, or check files that are already there.
 */
public final class ModelPlanner {
  /** The field every storage URI message names. */
  public static final String URI_FIELD = BaseModelValidator.URI_FIELD;
  /** The field of the destination directory. */
  public static final String PATH_FIELD = BaseModelValidator.PATH_FIELD;

  private ModelPlanner() {
  }

  /**
   * The action for {@code model} (null when it no longer exists) on the node {@code nodeName} with {@code labels}.
   */
  public static AgentAction plan(AgentModel model, String nodeName, Map<String, String> labels, ModelRoots roots) {
    if (model == null) {
      return new AgentAction.Remove("the model no longer exists");
    }
    if (model.deleting()) {
      return new AgentAction.Remove("the model is being deleted");
    }
    StorageSpec storage = model.storage();
    if (storage == null || !NodeMatcher.matches(nodeName, labels, storage.nodeSelector(), storage.nodeAffinity())) {
      return new AgentAction.Remove("the node does not match spec.storage.nodeSelector/nodeAffinity");
    }
    List<FieldProblem> problems = BaseModelValidator.validate(storage, model.key().clusterScoped());
    if (!problems.isEmpty()) {
      return new AgentAction.Fail(problems.getFirst().reason(), problems.getFirst().describe());
    }
    StorageUri uri = StorageUri.parse(storage.storageUri(), URI_FIELD);
    return switch (uri) {
      case StorageUri.HuggingFace hf -> download(hf, storage, roots);
      case StorageUri.S3 s3 -> download(s3, storage, roots);
      case StorageUri.Local local -> switch (roots.check(local.path(), URI_FIELD + " (local://)")) {
        case ModelRoots.Check.Allowed allowed -> new AgentAction.UseLocal(allowed.path());
        case ModelRoots.Check.Refused refused -> new AgentAction.Fail(refused.reason(), refused.message());
      };
      case StorageUri.Pvc pvc -> new AgentAction.UsePvc(pvc.namespace().orElse(model.key().namespace()),
          pvc.claim(), pvc.subPath());
      default -> throw new IllegalStateException("validated: " + uri.scheme() + ":// is not placed by the agent");
    };
  }

  /** Where the agent downloads {@code model} to, if it is a download source with an allowed path. */
  public static Optional<ModelRoots.Resolved> downloadDir(AgentModel model, ModelRoots roots) {
    if (model == null || model.storage() == null) {
      return Optional.empty();
    }
    try {
      StorageUri uri = StorageUri.parse(model.storage().storageUri(), URI_FIELD);
      if (!(uri instanceof StorageUri.HuggingFace) && !(uri instanceof StorageUri.S3)) {
        return Optional.empty();
      }
    } catch (StorageUriException e) {
      return Optional.empty();
    }
    return roots.check(model.storage().path(), PATH_FIELD) instanceof ModelRoots.Check.Allowed a
        ? Optional.of(a.path()) : Optional.empty();
  }

  private static AgentAction download(StorageUri uri, StorageSpec storage, ModelRoots roots) {
    return switch (roots.check(storage.path(), PATH_FIELD)) {
      case ModelRoots.Check.Allowed allowed -> new AgentAction.Download(uri, allowed.path());
      case ModelRoots.Check.Refused refused -> new AgentAction.Fail(refused.reason(), refused.message());
    };
  }
}
