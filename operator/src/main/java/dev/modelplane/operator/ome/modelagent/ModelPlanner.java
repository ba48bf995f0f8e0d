package dev.modelplane.operator.ome.modelagent;

import dev.modelplane.api.ome.v1beta1.StorageSpec;
import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.modelsource.StorageUri;
import dev.modelplane.operator.modelsource.StorageUriException;
import dev.modelplane.operator.ome.storage.BaseModelValidator;
import dev.modelplane.operator.ome.storage.ModelPaths;
import java.util.Collection;
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
   * The action for {@code model} (null when it no longer exists) on the node {@code nodeName} with {@code labels},
   * as if no other model existed.
   */
  public static AgentAction plan(AgentModel model, String nodeName, Map<String, String> labels, ModelRoots roots) {
    return plan(model, nodeName, labels, roots, List.of());
  }

  /**
   * The action for {@code model} (null when it no longer exists) on the node {@code nodeName} with {@code labels},
   * among {@code all} models: a directory outside the roots (for a BaseModel, outside its namespace's directory) or
   * overlapping a model created earlier fails the model ({@link ModelPaths}), and nothing is read or written there.
   */
  public static AgentAction plan(AgentModel model, String nodeName, Map<String, String> labels, ModelRoots roots,
      Collection<AgentModel> all) {
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
    ModelPaths.Decision decision = roots.paths().decide(model.claimant(),
        all.stream().map(AgentModel::claimant).toList());
    if (decision instanceof ModelPaths.Decision.Refused refused) {
      return new AgentAction.Fail(refused.reason(), refused.describe());
    }
    return switch (uri) {
      case StorageUri.HuggingFace hf -> download(hf, decision, roots);
      case StorageUri.S3 s3 -> download(s3, decision, roots);
      case StorageUri.Gcs gs -> download(gs, decision, roots);
      case StorageUri.GitHub gh -> download(gh, decision, roots);
      case StorageUri.Local local -> switch (resolve(decision, roots)) {
        case ModelRoots.Check.Allowed allowed -> new AgentAction.UseLocal(allowed.path());
        case ModelRoots.Check.Refused refused -> new AgentAction.Fail(refused.reason(), refused.message());
      };
      case StorageUri.Pvc pvc -> new AgentAction.UsePvc(pvc.namespace().orElse(model.key().namespace()),
          pvc.claim(), pvc.subPath());
      default -> throw new IllegalStateException("validated: " + uri.scheme() + ":// is not placed by the agent");
    };
  }

  /**
   * Where the agent downloads {@code model} to, if it is a download source whose directory the rules allow among
   * {@code all} (a model refused for a conflict has no directory of its own: nothing is removed on its behalf).
   */
  public static Optional<ModelRoots.Resolved> downloadDir(AgentModel model, ModelRoots roots,
      Collection<AgentModel> all) {
    if (model == null || model.storage() == null) {
      return Optional.empty();
    }
    try {
      StorageUri uri = StorageUri.parse(model.storage().storageUri(), URI_FIELD);
      if (BaseModelValidator.handling(uri) != BaseModelValidator.Handling.DOWNLOAD) {
        return Optional.empty();
      }
    } catch (StorageUriException e) {
      return Optional.empty();
    }
    List<ModelPaths.Claimant> claimants = new java.util.ArrayList<>(all.stream().map(AgentModel::claimant).toList());
    if (all.stream().noneMatch(m -> m.key().equals(model.key()))) {
      claimants.add(model.claimant());
    }
    return resolve(roots.paths().decide(model.claimant(), claimants), roots) instanceof ModelRoots.Check.Allowed a
        ? Optional.of(a.path()) : Optional.empty();
  }

  private static ModelRoots.Check resolve(ModelPaths.Decision decision, ModelRoots roots) {
    if (!(decision instanceof ModelPaths.Decision.OnNode on)) {
      return new ModelRoots.Check.Refused(ModelPaths.POLICY_REFUSED, "no node directory");
    }
    return roots.check(on.path().toString(), on.field());
  }

  private static AgentAction download(StorageUri uri, ModelPaths.Decision decision, ModelRoots roots) {
    return switch (resolve(decision, roots)) {
      case ModelRoots.Check.Allowed allowed -> new AgentAction.Download(uri, allowed.path());
      case ModelRoots.Check.Refused refused -> new AgentAction.Fail(refused.reason(), refused.message());
    };
  }
}
