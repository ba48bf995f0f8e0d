package dev.modelplane.operator.llmkube.isvc;

import java.util.Map;

/**
 * What the cluster offers, for checks the spec alone cannot answer. Null maps mean "unknown" (as in
 * {@code modelplane render}) and skip the check.
 *
 * @param maxGpusPerNode per GPU resource name, the most any single node can allocate
 * @param priorityClasses PriorityClass name → value
 */
public record ClusterFacts(Map<String, Long> maxGpusPerNode, Map<String, Integer> priorityClasses) {
  /** Nothing known. */
  public static final ClusterFacts UNKNOWN = new ClusterFacts(null, null);
}
