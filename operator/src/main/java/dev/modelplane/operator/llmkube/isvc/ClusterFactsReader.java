package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.HashMap;
import java.util.Map;

/** {@link ClusterFacts} read from the controller's informer caches (PriorityClasses, nodes): no API calls. */
final class ClusterFactsReader {
  private ClusterFactsReader() {
  }

  /** The facts; node capacity only when the operator watches nodes. */
  static ClusterFacts read(Context<InferenceService> context, boolean nodes) {
    return new ClusterFacts(nodes ? maxGpusPerNode(context) : null, priorityClasses(context));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Integer> priorityClasses(Context<InferenceService> context) {
    var source = (InformerEventSource<PriorityClass, InferenceService>) context.eventSourceRetriever()
        .getEventSourceFor(PriorityClass.class, IsvcEventSources.PRIORITY_CLASSES);
    Map<String, Integer> classes = new HashMap<>();
    source.list(pc -> true).forEach(pc -> classes.put(pc.getMetadata().getName(), pc.getValue()));
    return classes;
  }

  /** Per extended resource (names with a slash, e.g. nvidia.com/gpu), the most one schedulable node allocates. */
  @SuppressWarnings("unchecked")
  private static Map<String, Long> maxGpusPerNode(Context<InferenceService> context) {
    var source = (InformerEventSource<Node, InferenceService>) context.eventSourceRetriever()
        .getEventSourceFor(Node.class, IsvcEventSources.NODES);
    Map<String, Long> max = new HashMap<>();
    source.list(n -> n.getSpec() == null || !Boolean.TRUE.equals(n.getSpec().getUnschedulable())).forEach(node -> {
      if (node.getStatus() == null || node.getStatus().getAllocatable() == null) {
        return;
      }
      for (Map.Entry<String, Quantity> e : node.getStatus().getAllocatable().entrySet()) {
        if (e.getKey().contains("/")) {
          max.merge(e.getKey(), e.getValue().getNumericalAmount().longValue(), Math::max);
        }
      }
    });
    return max;
  }
}
