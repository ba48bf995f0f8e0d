package dev.modelplane.operator.ome.basemodel;

import dev.modelplane.operator.ome.storage.ModelPaths;
import dev.modelplane.operator.ome.storage.NodeReport;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which agents a deleted model still waits for: every node that reports the model (and has not reported it
 * {@code Deleted}), except a node that has not been Ready (condition {@code Ready} not {@code True}) for
 * {@code timeout}: its agent cannot clean up, and the model stops waiting for it. The agent, when it runs again,
 * finds the model gone and removes its files, label and report then.
 */
public final class AgentWait {
  private AgentWait() {
  }

  /**
   * One node given up on.
   *
   * @param node the node's name
   * @param notReadySince since when its Ready condition is not True (the model's deletion when it has none)
   * @param condition the Ready condition's status, or {@code missing}
   */
  public record GivenUp(String node, Instant notReadySince, String condition) {
  }

  /**
   * The outcome.
   *
   * @param waiting nodes whose agent the deletion still waits for, sorted
   * @param givenUp nodes not waited for any longer, sorted by name
   */
  public record Outcome(List<String> waiting, List<GivenUp> givenUp) {
  }

  /**
   * @param reports per existing node, its report about the model
   * @param nodes existing nodes by name
   * @param deletionStarted the model's {@code deletionTimestamp} (the start of the wait for a node without a Ready
   *     condition)
   */
  public static Outcome decide(Map<String, NodeReport> reports, Map<String, Node> nodes, Instant deletionStarted,
      Instant now, Duration timeout) {
    List<String> waiting = new ArrayList<>();
    List<GivenUp> givenUp = new ArrayList<>();
    new TreeMap<>(reports).forEach((node, report) -> {
      if (NodeReport.DELETED.equals(report.status())) {
        return;
      }
      Node n = nodes.get(node);
      NodeCondition ready = n == null || n.getStatus() == null || n.getStatus().getConditions() == null ? null
          : n.getStatus().getConditions().stream().filter(c -> "Ready".equals(c.getType())).findFirst()
              .orElse(null);
      if (ready != null && "True".equals(ready.getStatus())) {
        waiting.add(node);
        return;
      }
      Instant since = ready == null ? null : ModelPaths.Claimant.created(ready.getLastTransitionTime());
      if (since == null) {
        since = deletionStarted == null ? now : deletionStarted;
      }
      if (!now.isBefore(since.plus(timeout))) {
        givenUp.add(new GivenUp(node, since, ready == null ? "missing" : ready.getStatus()));
      } else {
        waiting.add(node);
      }
    });
    return new Outcome(List.copyOf(waiting), List.copyOf(givenUp));
  }
}
