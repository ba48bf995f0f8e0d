package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.operator.llmkube.IsvcLabels;
import dev.modelplane.operator.scheduling.PriorityTier;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The informers an InferenceService watches besides its own objects: its Model, its pods (for scheduling state),
 * PriorityClasses (for {@code effectivePriority}) and nodes (for GPU capacity).
 */
final class IsvcEventSources {
  static final String MODEL_INDEX = "modelRef";
  static final String PRIORITY_CLASS_INDEX = "priorityClass";
  static final String MODELS = "models";
  static final String PODS = "pods";
  static final String PRIORITY_CLASSES = "priorityclasses";
  static final String NODES = "nodes";

  private IsvcEventSources() {
  }

  static void addIndexers(IndexerResourceCache<InferenceService> cache) {
    cache.addIndexer(MODEL_INDEX, isvc -> modelIds(isvc).stream()
        .map(id -> key(isvc.getMetadata().getNamespace(), id.getName())).toList());
    cache.addIndexer(PRIORITY_CLASS_INDEX, isvc -> List.of(priorityClassName(isvc)));
  }

  /** The service's Model and, with {@code speculativeDecoding.draftModelRef}, its draft Model. */
  static Set<ResourceID> modelIds(InferenceService isvc) {
    String ns = isvc.getMetadata().getNamespace();
    String draft = ModelGates.draftRef(isvc);
    return draft == null || draft.equals(isvc.getSpec().modelRef())
        ? Set.of(new ResourceID(isvc.getSpec().modelRef(), ns))
        : Set.of(new ResourceID(isvc.getSpec().modelRef(), ns), new ResourceID(draft, ns));
  }

  static String priorityClassName(InferenceService isvc) {
    String name = isvc.getSpec().priorityClassName();
    return name != null && !name.isBlank() ? name : PriorityTier.of(isvc.getSpec().priority()).className();
  }

  /** Each InferenceService's Model; a Model's change re-reconciles the services naming it. */
  static InformerEventSource<Model, InferenceService> models(EventSourceContext<InferenceService> context) {
    IndexerResourceCache<InferenceService> primaries = context.getPrimaryCache();
    return new InformerEventSource<>(InformerEventSourceConfiguration.from(Model.class, InferenceService.class)
        .withName(MODELS)
        .withNamespacesInheritedFromController()
        .withSecondaryToPrimaryMapper(model -> primaries.byIndex(MODEL_INDEX,
                key(model.getMetadata().getNamespace(), model.getMetadata().getName())).stream()
            .map(ResourceID::fromResource).collect(Collectors.toSet()))
        .withPrimaryToSecondaryMapper((InferenceService isvc) -> modelIds(isvc))
        .build(), context);
  }

  /** The services' pods, by their service label; only phase and condition changes matter. */
  static InformerEventSource<Pod, InferenceService> pods(EventSourceContext<InferenceService> context) {
    return new InformerEventSource<>(InformerEventSourceConfiguration.from(Pod.class, InferenceService.class)
        .withName(PODS)
        .withNamespacesInheritedFromController()
        .withLabelSelector(IsvcLabels.SERVICE)
        .withSecondaryToPrimaryMapper(pod -> Set.of(new ResourceID(
            pod.getMetadata().getLabels().get(IsvcLabels.SERVICE), pod.getMetadata().getNamespace())))
        .withOnUpdateFilter((newPod, oldPod) -> newPod.getStatus() == null || oldPod.getStatus() == null
            || !Objects.equals(newPod.getStatus().getPhase(), oldPod.getStatus().getPhase())
            || !Objects.equals(newPod.getStatus().getConditions(), oldPod.getStatus().getConditions()))
        .build(), context);
  }

  /** PriorityClasses; a class appearing or changing re-reconciles the services using it. */
  static InformerEventSource<PriorityClass, InferenceService> priorityClasses(
      EventSourceContext<InferenceService> context) {
    IndexerResourceCache<InferenceService> primaries = context.getPrimaryCache();
    return new InformerEventSource<>(InformerEventSourceConfiguration.from(PriorityClass.class,
            InferenceService.class)
        .withName(PRIORITY_CLASSES)
        .withWatchAllNamespaces()
        .withSecondaryToPrimaryMapper(pc -> primaries.byIndex(PRIORITY_CLASS_INDEX, pc.getMetadata().getName())
            .stream().map(ResourceID::fromResource).collect(Collectors.toSet()))
        .withPrimaryToSecondaryMapper((InferenceService isvc) -> Set.of(new ResourceID(priorityClassName(isvc))))
        .build(), context);
  }

  /**
   * Nodes, for the largest GPU capacity. A node's allocatable resources changing re-reconciles the services the
   * supplier names (those waiting for GPUs).
   */
  static InformerEventSource<Node, InferenceService> nodes(EventSourceContext<InferenceService> context,
      Supplier<Set<ResourceID>> interested) {
    return new InformerEventSource<>(InformerEventSourceConfiguration.from(Node.class, InferenceService.class)
        .withName(NODES)
        .withWatchAllNamespaces()
        .withSecondaryToPrimaryMapper(node -> interested.get())
        .withPrimaryToSecondaryMapper((InferenceService isvc) -> Set.of())
        .withOnUpdateFilter((newNode, oldNode) -> !Objects.equals(allocatable(newNode), allocatable(oldNode))
            || !Objects.equals(newNode.getSpec().getUnschedulable(), oldNode.getSpec().getUnschedulable()))
        .build(), context);
  }

  private static Object allocatable(Node node) {
    return node.getStatus() == null ? null : node.getStatus().getAllocatable();
  }

  static String key(String namespace, String name) {
    return namespace + "/" + name;
  }
}
