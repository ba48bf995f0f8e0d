package dev.modelplane.operator.ome.basemodel;

import dev.modelplane.api.ome.v1beta1.ModelStatusSpec;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import dev.modelplane.operator.ome.storage.NodeReport;
import dev.modelplane.operator.ome.storage.NodeReports;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.CustomResource;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The informers a base-model controller reads the agents' work from: the per-node status ConfigMaps in the agents'
 * namespace (a change wakes every model it names) and nodes (a deleted node's reports stop counting).
 */
final class NodeReportSources {
  static final String CONFIGMAPS = "node-reports";
  static final String NODES = "nodes";

  private NodeReportSources() {
  }

  /**
   * Status ConfigMaps; a ConfigMap's change re-reconciles the models of this kind it has, or had until this change,
   * an entry for (an agent removing its entry is what a deleting model waits for, and the informer hands the mapper
   * only the new state, so the mapper remembers each ConfigMap's previous models).
   */
  static <R extends CustomResource<?, ModelStatusSpec>> InformerEventSource<ConfigMap, R> configMaps(
      EventSourceContext<R> context, Class<R> kind, Predicate<BaseModelKey> mine, String namespace) {
    Map<String, Set<ResourceID>> previous = new ConcurrentHashMap<>();
    return new InformerEventSource<>(InformerEventSourceConfiguration.from(ConfigMap.class, kind)
        .withName(CONFIGMAPS)
        .withNamespaces(Set.of(namespace))
        .withLabelSelector(NodeReports.CONFIGMAP_SELECTOR)
        .withSecondaryToPrimaryMapper(cm -> {
          Set<ResourceID> now = models(cm, mine);
          Set<ResourceID> before = previous.put(cm.getMetadata().getName(), now);
          if (before == null || now.containsAll(before)) {
            return now;
          }
          Set<ResourceID> both = new HashSet<>(now);
          both.addAll(before);
          return both;
        })
        .withPrimaryToSecondaryMapper((R model) -> Set.of())
        .build(), context);
  }

  /** Nodes; only a deletion matters: it wakes the models the node's ConfigMap names, whose reports then drop. */
  static <R extends CustomResource<?, ModelStatusSpec>> InformerEventSource<Node, R> nodes(
      EventSourceContext<R> context, Class<R> kind, Predicate<BaseModelKey> mine,
      InformerEventSource<ConfigMap, R> configMaps, String namespace) {
    return new InformerEventSource<>(InformerEventSourceConfiguration.from(Node.class, kind)
        .withName(NODES)
        .withWatchAllNamespaces()
        .withOnAddFilter(node -> false)
        .withOnUpdateFilter((newNode, oldNode) -> false)
        .withSecondaryToPrimaryMapper(node -> configMaps.get(new ResourceID(node.getMetadata().getName(), namespace))
            .map(cm -> models(cm, mine)).orElse(Set.of()))
        .withPrimaryToSecondaryMapper((R model) -> Set.of())
        .build(), context);
  }

  /** The objects of one kind ({@code mine}) a ConfigMap has entries for. */
  static Set<ResourceID> models(ConfigMap cm, Predicate<BaseModelKey> mine) {
    if (cm.getData() == null) {
      return Set.of();
    }
    return cm.getData().keySet().stream().map(BaseModelKey::fromReportKey).flatMap(java.util.Optional::stream)
        .filter(mine)
        .map(k -> new ResourceID(k.name(), k.namespace())).collect(Collectors.toSet());
  }

  /**
   * What the caches show for one model.
   *
   * @param reports per existing node, its report about the model
   * @param orphans status ConfigMaps whose node no longer exists
   * @param nodes the existing nodes by name
   */
  record Seen(Map<String, NodeReport> reports, List<ConfigMap> orphans, Map<String, Node> nodes) {
  }

  /** The model's reports from nodes that exist, and the ConfigMaps of nodes that are gone. */
  @SuppressWarnings("unchecked")
  static <R extends CustomResource<?, ModelStatusSpec>> Seen read(Context<R> context, BaseModelKey key) {
    var cms = (InformerEventSource<ConfigMap, R>) context.eventSourceRetriever()
        .getEventSourceFor(ConfigMap.class, CONFIGMAPS);
    var nodes = (InformerEventSource<Node, R>) context.eventSourceRetriever().getEventSourceFor(Node.class, NODES);
    Map<String, Node> existing = nodes.list(n -> true).collect(Collectors.toMap(n -> n.getMetadata().getName(),
        n -> n, (a, b) -> a));
    Map<String, NodeReport> reports = new LinkedHashMap<>();
    List<ConfigMap> orphans = new java.util.ArrayList<>();
    cms.list(cm -> true).forEach(cm -> {
      String node = cm.getMetadata().getName();
      if (!existing.containsKey(node)) {
        orphans.add(cm);
        return;
      }
      String json = cm.getData() == null ? null : cm.getData().get(key.reportKey());
      if (json != null) {
        reports.put(node, NodeReport.parse(json));
      }
    });
    return new Seen(reports, orphans, existing);
  }
}
