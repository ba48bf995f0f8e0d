package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterServingRuntime;
import dev.modelplane.api.ome.v1beta1.FineTunedWeight;
import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.InferenceServiceSpec;
import dev.modelplane.api.ome.v1beta1.ServingRuntime;
import dev.modelplane.operator.prefixrouting.NamespacePolicies;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What an OME InferenceService watches: its own workloads and pods (by the {@code ome.io/inferenceservice} label),
 * the model it serves, its fine-tuned weight, and every serving runtime (a new or changed runtime can change which
 * runtime is chosen, or make a service that had none servable), and the namespace's NetworkPolicies, among which a
 * precise-routing service's KV-events policy is settled ({@link NamespacePolicies}).
 */
final class OmeEventSources {
  static final String MODEL_INDEX = "ome-model";
  static final String WEIGHT_INDEX = "ome-finetunedweight";
  static final String DEPLOYMENTS = "ome-deployments";
  static final String SERVICES = "ome-services";
  static final String PODS = "ome-pods";
  private static final String CLUSTER = "<cluster>";

  private OmeEventSources() {
  }

  static void addIndexers(IndexerResourceCache<InferenceService> cache) {
    cache.addIndexer(MODEL_INDEX, isvc -> {
      String model = modelName(isvc);
      return model == null ? List.of() : List.of(key(isvc.getMetadata().getNamespace(), model),
          key(CLUSTER, model));
    });
    cache.addIndexer(WEIGHT_INDEX, isvc -> {
      InferenceServiceSpec spec = PredictorConversion.effective(isvc.getSpec());
      return spec.model() == null || spec.model().fineTunedWeights() == null ? List.of()
          : List.copyOf(spec.model().fineTunedWeights());
    });
  }

  static List<EventSource<?, InferenceService>> all(EventSourceContext<InferenceService> context) {
    IndexerResourceCache<InferenceService> primaries = context.getPrimaryCache();
    List<EventSource<?, InferenceService>> sources = new ArrayList<>();
    sources.add(labelled(context, Deployment.class, DEPLOYMENTS, false));
    sources.add(labelled(context, Service.class, SERVICES, false));
    sources.add(labelled(context, Pod.class, PODS, true));
    sources.add(namespaced(context, BaseModel.class, m -> primaries.byIndex(MODEL_INDEX,
        key(m.getMetadata().getNamespace(), m.getMetadata().getName()))));
    sources.add(clusterScoped(context, ClusterBaseModel.class, m -> primaries.byIndex(MODEL_INDEX,
        key(CLUSTER, m.getMetadata().getName()))));
    sources.add(clusterScoped(context, FineTunedWeight.class, w -> primaries.byIndex(WEIGHT_INDEX,
        w.getMetadata().getName())));
    sources.add(namespaced(context, ServingRuntime.class, r -> primaries.list(r.getMetadata().getNamespace())
        .toList()));
    sources.add(clusterScoped(context, ClusterServingRuntime.class, r -> primaries.list().toList()));
    sources.add(NamespacePolicies.source(context, InferenceService.class));
    return sources;
  }

  /** The model name the service serves (after converting a predictor), or null. */
  static String modelName(InferenceService isvc) {
    InferenceServiceSpec spec = isvc.getSpec() == null ? null : PredictorConversion.effective(isvc.getSpec());
    return spec == null || spec.model() == null ? null : spec.model().name();
  }

  /** Objects carrying the service label; pods only matter when their phase, readiness or container states change. */
  private static <R extends HasMetadata> InformerEventSource<R, InferenceService> labelled(
      EventSourceContext<InferenceService> context, Class<R> type, String name, boolean podFilter) {
    var config = InformerEventSourceConfiguration.from(type, InferenceService.class)
        .withName(name)
        .withNamespacesInheritedFromController()
        .withLabelSelector(OmeLabels.INFERENCE_SERVICE)
        .withSecondaryToPrimaryMapper(r -> Set.of(new ResourceID(
            r.getMetadata().getLabels().get(OmeLabels.INFERENCE_SERVICE), r.getMetadata().getNamespace())));
    if (podFilter) {
      config.withOnUpdateFilter((newer, older) -> !Objects.equals(((Pod) newer).getStatus(),
          ((Pod) older).getStatus()));
    }
    return new InformerEventSource<>(config.build(), context);
  }

  private static <R extends HasMetadata> InformerEventSource<R, InferenceService> namespaced(
      EventSourceContext<InferenceService> context, Class<R> type,
      java.util.function.Function<R, List<InferenceService>> interested) {
    return new InformerEventSource<>(InformerEventSourceConfiguration.from(type, InferenceService.class)
        .withName(sourceName(type))
        .withNamespacesInheritedFromController()
        .withSecondaryToPrimaryMapper(r -> ids(interested.apply(r)))
        .withPrimaryToSecondaryMapper((InferenceService isvc) -> Set.of())
        .build(), context);
  }

  private static <R extends HasMetadata> InformerEventSource<R, InferenceService> clusterScoped(
      EventSourceContext<InferenceService> context, Class<R> type,
      java.util.function.Function<R, List<InferenceService>> interested) {
    return new InformerEventSource<>(InformerEventSourceConfiguration.from(type, InferenceService.class)
        .withName(sourceName(type))
        .withWatchAllNamespaces()
        .withSecondaryToPrimaryMapper(r -> ids(interested.apply(r)))
        .withPrimaryToSecondaryMapper((InferenceService isvc) -> Set.of())
        .build(), context);
  }

  private static Set<ResourceID> ids(List<InferenceService> services) {
    return services.stream().map(ResourceID::fromResource).collect(Collectors.toSet());
  }

  /** The name of the event source watching {@code type}. */
  static String sourceName(Class<?> type) {
    return "ome-" + type.getSimpleName().toLowerCase(java.util.Locale.ROOT);
  }

  static String key(String namespace, String name) {
    return namespace + "/" + name;
  }
}
