package dev.modelplane.operator.otterscale.modelservice;

import dev.modelplane.api.otterscale.v1alpha1.ModelService;
import dev.modelplane.operator.prefixrouting.NamespacePolicies;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a ModelService watches: the Deployments it owns (serving and picker) and the pods of OtterScale's labels —
 * serving pods by {@code llm-d.ai/model}, picker pods by {@code inferencepool} (the picker's name, indexed back to its
 * ModelService) — whose status changes decide the phase; and the namespace's NetworkPolicies, among which a
 * precise-routing pool's KV-events policy is settled ({@link NamespacePolicies}).
 */
final class ModelServiceEventSources {
  static final String PICKER_INDEX = "otterscale-picker";
  static final String DEPLOYMENTS = "otterscale-deployments";
  static final String PODS = "otterscale-pods";

  private ModelServiceEventSources() {
  }

  static void addIndexers(IndexerResourceCache<ModelService> cache) {
    cache.addIndexer(PICKER_INDEX, ms -> List.of(ms.getMetadata().getNamespace() + "/"
        + new ModelServiceNames(ms.getMetadata().getName(), ms.getMetadata().getNamespace()).picker()));
  }

  static List<EventSource<?, ModelService>> all(EventSourceContext<ModelService> context) {
    IndexerResourceCache<ModelService> primaries = context.getPrimaryCache();
    var deployments = InformerEventSourceConfiguration.from(Deployment.class, ModelService.class)
        .withName(DEPLOYMENTS)
        .withNamespacesInheritedFromController()
        .withLabelSelector(ModelServiceNames.PART_OF + "=" + ModelServiceNames.PART_OF_VALUE)
        .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(ModelService.class))
        .build();
    var pods = InformerEventSourceConfiguration.from(Pod.class, ModelService.class)
        .withName(PODS)
        .withNamespacesInheritedFromController()
        .withLabelSelector(ModelServiceNames.PART_OF + "=" + ModelServiceNames.PART_OF_VALUE)
        .withSecondaryToPrimaryMapper(pod -> owners(pod, primaries))
        .withOnUpdateFilter((newer, older) -> !Objects.equals(newer.getStatus(), older.getStatus()))
        .build();
    return List.of(new InformerEventSource<>(deployments, context), new InformerEventSource<>(pods, context),
        NamespacePolicies.source(context, ModelService.class));
  }

  private static Set<ResourceID> owners(Pod pod, IndexerResourceCache<ModelService> primaries) {
    Map<String, String> labels = pod.getMetadata().getLabels();
    String ns = pod.getMetadata().getNamespace();
    if (labels.containsKey(ModelServiceNames.MODEL)) {
      return Set.of(new ResourceID(labels.get(ModelServiceNames.MODEL), ns));
    }
    String picker = labels.get(ModelServiceNames.INFERENCE_POOL);
    if (picker == null) {
      return Set.of();
    }
    return primaries.byIndex(PICKER_INDEX, ns + "/" + picker).stream().map(ResourceID::fromResource)
        .collect(Collectors.toSet());
  }
}
