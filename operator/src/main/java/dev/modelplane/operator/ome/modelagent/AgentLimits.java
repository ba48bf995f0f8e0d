package dev.modelplane.operator.ome.modelagent;

import dev.modelplane.operator.ome.storage.BaseModelKey;
import java.util.Set;

/**
 * What one node's agent takes on at most.
 *
 * @param diskBudgetBytes bytes the agent's files may take in each models root, 0 for no budget (the free space of
 *     the file system is always checked)
 * @param maxListedObjects files a model's source may list (an S3 prefix, a Hub repository); more fails the model
 *     while listing, before anything is downloaded
 * @param maxModelsPerNode models the agent places on its node at once (downloaded, or checked in place); a model
 *     beyond fails with reason {@value #NODE_MODEL_LIMIT}. The node's labels and status ConfigMap entries of this
 *     agent are bounded by twice this number: past that, a model gets neither
 */
public record AgentLimits(long diskBudgetBytes, int maxListedObjects, int maxModelsPerNode) {
  /** Reason of a model beyond {@link #maxModelsPerNode}. */
  public static final String NODE_MODEL_LIMIT = "NodeModelLimit";
  /** No disk budget, 10,000 listed files, 100 models per node. */
  public static final AgentLimits DEFAULTS = new AgentLimits(0, 10_000, 100);

  public AgentLimits {
    if (diskBudgetBytes < 0) {
      throw new IllegalArgumentException("--disk-budget must not be negative, got " + diskBudgetBytes);
    }
    if (maxListedObjects < 1) {
      throw new IllegalArgumentException("--max-listed-objects must be positive, got " + maxListedObjects);
    }
    if (maxModelsPerNode < 1) {
      throw new IllegalArgumentException("--max-models-per-node must be positive, got " + maxModelsPerNode);
    }
  }

  /** Whether a model not yet among {@code placed} (ready or downloading) is one more than {@code max}. */
  static boolean overLimit(Set<BaseModelKey> placed, BaseModelKey key, int max) {
    return !placed.contains(key) && placed.size() >= max;
  }

  /** How many status entries (and node labels) the agent writes at most. */
  public int maxReports() {
    return maxModelsPerNode * 2;
  }
}
