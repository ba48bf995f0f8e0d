package dev.modelplane.operator.ome.basemodel;

import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.api.ome.v1beta1.FineTunedWeight;
import dev.modelplane.api.ome.v1beta1.ModelStatusSpec;
import dev.modelplane.operator.common.Conditions;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import dev.modelplane.operator.ome.storage.ModelPaths;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The informers a base-model controller sees every model's directory through (BaseModels, ClusterBaseModels,
 * FineTunedWeights), for {@link ModelPaths#decide}. A model that changes or goes away wakes the models of the
 * controller's kind whose directory overlaps its own, and those refused for a conflict (which may now be free).
 */
final class PathClaims {
  private static final List<Class<? extends HasMetadata>> KINDS = List.of(BaseModel.class, ClusterBaseModel.class,
      FineTunedWeight.class);

  private PathClaims() {
  }

  static String sourceName(Class<?> type) {
    return "paths-" + type.getSimpleName().toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * One informer per kind.
   *
   * @param watched the namespaces the operator serves (empty: all); BaseModels are read only there, also by the
   *     controllers of cluster-scoped kinds, which could not list them cluster-wide in namespaced mode
   */
  static <R extends CustomResource<?, ModelStatusSpec>> List<InformerEventSource<?, R>> sources(
      EventSourceContext<R> context, Class<R> kind, ModelPaths paths, Set<String> watched) {
    List<InformerEventSource<?, R>> sources = new ArrayList<>();
    for (Class<? extends HasMetadata> type : KINDS) {
      sources.add(source(context, kind, type, paths, watched));
    }
    return sources;
  }

  private static <T extends HasMetadata, R extends CustomResource<?, ModelStatusSpec>> InformerEventSource<T, R>
      source(EventSourceContext<R> context, Class<R> kind, Class<T> type, ModelPaths paths, Set<String> watched) {
    var config = InformerEventSourceConfiguration.from(type, kind).withName(sourceName(type))
        .withSecondaryToPrimaryMapper(changed -> affected(context, changed, paths))
        .withPrimaryToSecondaryMapper((R model) -> Set.of());
    boolean namespaced = io.fabric8.kubernetes.api.model.Namespaced.class.isAssignableFrom(type);
    if (namespaced && io.fabric8.kubernetes.api.model.Namespaced.class.isAssignableFrom(kind)) {
      config.withNamespacesInheritedFromController();
    } else if (namespaced && !watched.isEmpty()) {
      config.withNamespaces(watched);
    } else {
      config.withWatchAllNamespaces();
    }
    return new InformerEventSource<>(config.build(), context);
  }

  private static <R extends CustomResource<?, ModelStatusSpec>> Set<ResourceID> affected(
      EventSourceContext<R> context, HasMetadata changed, ModelPaths paths) {
    BaseModelKey changedKey = BaseModelKey.of(changed);
    Path changedPath = paths.own(ModelPaths.Claimant.of(changed)) instanceof ModelPaths.Decision.OnNode d
        ? d.path() : null;
    return context.getPrimaryCache().list().filter(model -> !BaseModelKey.of(model).equals(changedKey))
        .filter(model -> conflicted(model) || changedPath != null
            && paths.own(ModelPaths.Claimant.of(model)) instanceof ModelPaths.Decision.OnNode d
            && ModelPaths.overlaps(d.path(), changedPath))
        .map(ResourceID::fromResource).collect(Collectors.toSet());
  }

  private static boolean conflicted(CustomResource<?, ModelStatusSpec> model) {
    ModelStatusSpec status = model.getStatus();
    var ready = status == null ? null : Conditions.find(status.conditions(), BaseModelStatusAggregator.READY);
    return ready != null && ModelPaths.PATH_CONFLICT.equals(ready.getReason());
  }

  /** Every model the caches hold. */
  @SuppressWarnings("unchecked")
  static <R extends HasMetadata> List<ModelPaths.Claimant> all(Context<R> context) {
    List<ModelPaths.Claimant> all = new ArrayList<>();
    for (Class<? extends HasMetadata> type : KINDS) {
      var source = (InformerEventSource<HasMetadata, R>) context.eventSourceRetriever()
          .getEventSourceFor((Class<HasMetadata>) type, sourceName(type));
      source.list(m -> true).forEach(m -> all.add(ModelPaths.Claimant.of(m)));
    }
    return all;
  }
}
