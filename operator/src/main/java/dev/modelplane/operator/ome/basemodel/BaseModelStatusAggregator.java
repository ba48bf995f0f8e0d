package dev.modelplane.operator.ome.basemodel;

import dev.modelplane.api.ome.v1beta1.LifeCycleState;
import dev.modelplane.api.ome.v1beta1.ModelStatusSpec;
import dev.modelplane.operator.common.Conditions;
import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.llmkube.model.ModelStatusAggregator;
import dev.modelplane.operator.ome.storage.ModelPaths;
import dev.modelplane.operator.ome.storage.NodeReport;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The whole status of a BaseModel or ClusterBaseModel from the agents' reports of existing nodes: {@code state}
 * Failed when the node directory is refused ({@link ModelPaths}: never Ready, whatever a node reports), else Ready
 * when any node is ready, else Failed when any failed (or the spec cannot be served), else In_Transit; sorted
 * {@code nodesReady} / {@code nodesFailed}; conditions {@code Ready} and {@code Degraded} with messages. A model
 * provided by its vendor's serving image ({@code vendor://}) is Ready without any node. {@code lifecycle} is kept as
 * written and never set here.
 */
public final class BaseModelStatusAggregator {
  public static final String READY = "Ready";
  public static final String DEGRADED = "Degraded";
  /** Ready reason of a {@code vendor://} model. */
  public static final String PROVIDED_BY_VENDOR = "ProvidedByVendor";
  /** At most this many failed nodes are named in the Degraded message. */
  private static final int NAMED_FAILURES = 5;

  private BaseModelStatusAggregator() {
  }

  /**
   * @param generation {@code metadata.generation}
   * @param previous the current status, or null
   * @param reports per node name, that node's report about this model (only nodes that still exist)
   * @param problems what is wrong with the spec
   */
  public static ModelStatusSpec aggregate(long generation, ModelStatusSpec previous, Map<String, NodeReport> reports,
      List<FieldProblem> problems, Instant now) {
    return aggregate(generation, previous, reports, problems, now, false);
  }

  /**
   * @param provided whether the model comes with its serving image ({@code vendor://}): Ready, on no node, unless
   *     the spec has a fatal problem
   */
  public static ModelStatusSpec aggregate(long generation, ModelStatusSpec previous, Map<String, NodeReport> reports,
      List<FieldProblem> problems, Instant now, boolean provided) {
    if (provided && problems.stream().noneMatch(FieldProblem::fatal)) {
      List<Condition> conditions = Conditions.set(previous == null ? null : previous.conditions(), READY,
          Conditions.TRUE, PROVIDED_BY_VENDOR, "The model comes with its vendor's serving image (vendor://): no node "
              + "holds or needs its files", generation, now);
      conditions = Conditions.set(conditions, DEGRADED, Conditions.FALSE, "AsExpected", "", generation, now);
      return new ModelStatusSpec(previous == null ? null : previous.lifecycle(), LifeCycleState.Ready, List.of(),
          List.of(), generation, conditions);
    }
    SortedMap<String, NodeReport> byNode = new TreeMap<>(reports);
    FieldProblem fatal = problems.stream().filter(FieldProblem::fatal).findFirst().orElse(null);
    // A refused directory is not the model's, whatever a node holds there.
    boolean refused = fatal != null && (ModelPaths.PATH_CONFLICT.equals(fatal.reason())
        || ModelPaths.POLICY_REFUSED.equals(fatal.reason()));
    List<String> ready = refused ? List.of() : nodesWith(byNode, NodeReport.READY);
    List<String> failed = nodesWith(byNode, NodeReport.FAILED);
    LifeCycleState state = !ready.isEmpty() ? LifeCycleState.Ready
        : fatal != null || !failed.isEmpty() ? LifeCycleState.Failed : LifeCycleState.In_Transit;
    List<Condition> previousConditions = previous == null ? null : previous.conditions();
    List<Condition> conditions = Conditions.set(previousConditions, READY, ready.isEmpty() ? Conditions.FALSE
        : Conditions.TRUE, readyReason(ready, failed, fatal, byNode), readyMessage(ready, byNode, fatal), generation,
        now);
    conditions = fatal != null
        ? Conditions.set(conditions, DEGRADED, Conditions.TRUE, fatal.reason(), fatal.describe(), generation, now)
        : !failed.isEmpty()
            ? Conditions.set(conditions, DEGRADED, Conditions.TRUE, "NodeFailed", failures(failed, byNode),
                generation, now)
            : Conditions.set(conditions, DEGRADED, Conditions.FALSE, "AsExpected", "", generation, now);
    return new ModelStatusSpec(previous == null ? null : previous.lifecycle(), state, ready, failed, generation,
        conditions);
  }

  private static List<String> nodesWith(SortedMap<String, NodeReport> reports, String status) {
    return reports.entrySet().stream().filter(e -> status.equals(e.getValue().status())).map(Map.Entry::getKey)
        .toList();
  }

  private static String readyReason(List<String> ready, List<String> failed, FieldProblem fatal,
      Map<String, NodeReport> reports) {
    if (!ready.isEmpty()) {
      return "ModelReady";
    }
    if (fatal != null) {
      return fatal.reason();
    }
    if (!failed.isEmpty()) {
      return "NoNodeReady";
    }
    return reports.isEmpty() ? "WaitingForAgents" : "Downloading";
  }

  private static String readyMessage(List<String> ready, Map<String, NodeReport> reports, FieldProblem fatal) {
    if (!ready.isEmpty()) {
      return "Ready on " + ready.size() + " of " + reports.size() + " node(s): " + String.join(", ", ready);
    }
    if (fatal != null) {
      return fatal.describe();
    }
    if (reports.isEmpty()) {
      return "No model agent has reported yet: it runs on the nodes that spec.storage.nodeSelector and "
          + "nodeAffinity select";
    }
    List<String> updating = nodesWith(new TreeMap<>(reports), NodeReport.UPDATING);
    return updating.isEmpty() ? "No node holds a usable copy"
        : "Downloading on " + updating.size() + " node(s): " + updating.stream().map(n -> n + progress(reports.get(n)))
            .collect(Collectors.joining(", "));
  }

  private static String progress(NodeReport report) {
    NodeReport.Progress p = report.progress();
    if (p == null || p.totalBytes() == null || p.totalBytes() <= 0 || p.completedBytes() == null) {
      return "";
    }
    return " (" + downloaded(p.completedBytes(), p.totalBytes()) + ")";
  }

  /** {@code 1.20 GiB of 4.00 GiB, 30%}: how far a download is, as {@code modelplane status} shows it. */
  public static String downloaded(long completed, long total) {
    return ModelStatusAggregator.humanSize(completed) + " of " + ModelStatusAggregator.humanSize(total) + ", "
        + Math.min(100, completed * 100 / total) + "%";
  }

  private static String failures(List<String> failed, Map<String, NodeReport> reports) {
    String named = failed.stream().limit(NAMED_FAILURES).map(node -> {
      NodeReport r = reports.get(node);
      String why = r.message() == null ? "failed" : r.message();
      return node + ": " + (r.reason() == null ? why : r.reason() + ": " + why);
    }).collect(Collectors.joining("; "));
    return failed.size() > NAMED_FAILURES ? named + "; and " + (failed.size() - NAMED_FAILURES) + " more" : named;
  }
}
