package dev.modelplane.operator.ome.modelagent;

import dev.modelplane.common.io.PathTrees;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes a model's downloaded directory (with partial files), unless another model placed on this node uses the
 * same directory, one inside it, or one around it. Symbolic links are removed, never followed.
 */
final class ModelFileCleaner {
  private static final Logger LOG = LoggerFactory.getLogger(ModelFileCleaner.class);

  private final ModelRoots roots;
  private final ModelSync.View view;
  private final String nodeName;

  ModelFileCleaner(ModelRoots roots, ModelSync.View view, String nodeName) {
    this.roots = roots;
    this.view = view;
    this.nodeName = nodeName;
  }

  /** Deletes {@code dir} of model {@code key} if no other model on the node shares it; true when deleted. */
  boolean delete(BaseModelKey key, ModelRoots.Resolved dir) {
    Optional<BaseModelKey> sharer = sharedWith(key, dir.specPath());
    if (sharer.isPresent()) {
      LOG.info("agent.files-kept model={} dir={} sharedWith={}", key, dir.specPath(), sharer.get());
      return false;
    }
    if (!Files.exists(dir.localPath(), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    try {
      PathTrees.deleteRecursively(dir.localPath());
      LOG.info("agent.files-removed model={} dir={}", key, dir.specPath());
      return true;
    } catch (IOException e) {
      LOG.warn("agent.files-remove-failed model={} dir={} error=\"{}\"", key, dir.specPath(), e.toString());
      return false;
    }
  }

  /** Another model on this node whose directory is {@code path}, inside it or around it. */
  Optional<BaseModelKey> sharedWith(BaseModelKey key, Path path) {
    java.util.Map<String, String> labels = view.nodeLabels();
    java.util.Collection<AgentModel> all = view.allModels();
    for (AgentModel other : all) {
      if (other.key().equals(key) || other.deleting()) {
        continue;
      }
      AgentAction action = ModelPlanner.plan(other, nodeName, labels, roots, all);
      Path otherPath = switch (action) {
        case AgentAction.Download d -> d.dir().specPath();
        case AgentAction.UseLocal l -> l.dir().specPath();
        default -> null;
      };
      if (otherPath != null && (otherPath.startsWith(path) || path.startsWith(otherPath))) {
        return Optional.of(other.key());
      }
    }
    return Optional.empty();
  }
}
