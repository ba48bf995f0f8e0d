package dev.modelplane.operator.ome.storage;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How the operator treats the node directories of BaseModels, ClusterBaseModels and FineTunedWeights.
 *
 * @param roots the model agents' roots ({@code --models-root} of {@code modelplane model-agent}, as model specs name
 *     them); a model's node directory must lie inside one, and a BaseModel without {@code spec.storage.path} gets
 *     {@code <first root>/<namespace>/<name>}
 * @param agentTimeout how long a deleted model waits for the agent of a node that is NotReady (or whose readiness
 *     is unknown) before it stops waiting for that node
 */
public record ModelStorageSettings(List<String> roots, Duration agentTimeout) {
  /** The agents' default root. */
  public static final String DEFAULT_ROOT = "/raid/models";
  /** How long deletion waits for an unreachable node's agent unless configured. */
  public static final Duration DEFAULT_AGENT_TIMEOUT = Duration.ofMinutes(10);

  public ModelStorageSettings {
    roots = List.copyOf(Objects.requireNonNullElse(roots, List.of(DEFAULT_ROOT)));
    if (roots.isEmpty()) {
      roots = List.of(DEFAULT_ROOT);
    }
    agentTimeout = Objects.requireNonNullElse(agentTimeout, DEFAULT_AGENT_TIMEOUT);
    if (agentTimeout.isNegative() || agentTimeout.isZero()) {
      throw new IllegalArgumentException("the model agent timeout must be positive, got " + agentTimeout);
    }
    new ModelPaths(roots); // rejects a relative root or one with '..'
  }

  /** The agents' default root and a 10 minute agent timeout. */
  public static ModelStorageSettings defaults() {
    return new ModelStorageSettings(List.of(DEFAULT_ROOT), DEFAULT_AGENT_TIMEOUT);
  }

  /** The path rules for these roots. */
  public ModelPaths paths() {
    return new ModelPaths(roots);
  }
}
