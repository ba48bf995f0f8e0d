package dev.modelplane.operator.ome.modelagent;

import io.fabric8.kubernetes.api.model.NodeAffinity;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import java.util.List;
import java.util.Map;

/**
 * Whether a model's {@code spec.storage} places a copy on a node, evaluated the way kube-scheduler evaluates a pod's
 * {@code nodeSelector} and required node affinity: every selector label equal, and at least one required term whose
 * expressions ({@code In}, {@code NotIn}, {@code Exists}, {@code DoesNotExist}, {@code Gt}, {@code Lt}) and fields
 * ({@code metadata.name} with {@code In}/{@code NotIn} and one value) all hold. A term that is empty or malformed
 * (e.g. {@code In} without values, {@code Gt} with a non-integer) matches no node, like the scheduler's. Preferred
 * terms do not decide placement. No selector and no affinity match every node.
 */
public final class NodeMatcher {
  private static final String NAME_FIELD = "metadata.name";

  private NodeMatcher() {
  }

  /**
   * Whether the node named {@code nodeName} with {@code nodeLabels} matches.
   *
   * @param nodeSelector {@code storage.nodeSelector}, or null
   * @param affinity {@code storage.nodeAffinity}, or null
   */
  public static boolean matches(String nodeName, Map<String, String> nodeLabels, Map<String, String> nodeSelector,
      NodeAffinity affinity) {
    Map<String, String> labels = nodeLabels == null ? Map.of() : nodeLabels;
    if (nodeSelector != null) {
      for (Map.Entry<String, String> e : nodeSelector.entrySet()) {
        if (!e.getValue().equals(labels.get(e.getKey()))) {
          return false;
        }
      }
    }
    NodeSelector required = affinity == null ? null : affinity.getRequiredDuringSchedulingIgnoredDuringExecution();
    if (required == null) {
      return true;
    }
    List<NodeSelectorTerm> terms = required.getNodeSelectorTerms();
    if (terms == null) {
      return false;
    }
    return terms.stream().anyMatch(term -> termMatches(term, nodeName, labels));
  }

  private static boolean termMatches(NodeSelectorTerm term, String nodeName, Map<String, String> labels) {
    List<NodeSelectorRequirement> expressions = orEmpty(term.getMatchExpressions());
    List<NodeSelectorRequirement> fields = orEmpty(term.getMatchFields());
    if (expressions.isEmpty() && fields.isEmpty()) {
      return false; // the scheduler: an empty term matches no objects
    }
    return expressions.stream().allMatch(r -> expressionMatches(r, labels))
        && fields.stream().allMatch(r -> fieldMatches(r, nodeName));
  }

  private static boolean expressionMatches(NodeSelectorRequirement r, Map<String, String> labels) {
    List<String> values = orEmpty(r.getValues());
    String key = r.getKey();
    if (key == null || key.isEmpty() || r.getOperator() == null) {
      return false;
    }
    String actual = labels.get(key);
    return switch (r.getOperator()) {
      case "In" -> !values.isEmpty() && actual != null && values.contains(actual);
      case "NotIn" -> !values.isEmpty() && (actual == null || !values.contains(actual));
      case "Exists" -> values.isEmpty() && actual != null;
      case "DoesNotExist" -> values.isEmpty() && actual == null;
      case "Gt", "Lt" -> compare(r.getOperator(), values, actual);
      default -> false;
    };
  }

  private static boolean compare(String operator, List<String> values, String actual) {
    if (values.size() != 1 || actual == null) {
      return false;
    }
    try {
      long wanted = Long.parseLong(values.get(0));
      long have = Long.parseLong(actual);
      return operator.equals("Gt") ? have > wanted : have < wanted;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static boolean fieldMatches(NodeSelectorRequirement r, String nodeName) {
    List<String> values = orEmpty(r.getValues());
    if (!NAME_FIELD.equals(r.getKey()) || values.size() != 1 || r.getOperator() == null) {
      return false;
    }
    return switch (r.getOperator()) {
      case "In" -> values.get(0).equals(nodeName);
      case "NotIn" -> !values.get(0).equals(nodeName);
      default -> false;
    };
  }

  private static <T> List<T> orEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }
}
