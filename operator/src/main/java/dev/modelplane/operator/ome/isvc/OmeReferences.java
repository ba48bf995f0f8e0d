package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterServingRuntime;
import dev.modelplane.api.ome.v1beta1.FineTunedWeight;
import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.ServingRuntime;
import dev.modelplane.operator.ome.storage.ModelPaths;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.List;
import java.util.Optional;

/**
 * Reads what an OME InferenceService refers to from the operator's informer caches: base models, fine-tuned weights
 * and serving runtimes.
 */
final class OmeReferences {
  private OmeReferences() {
  }

  /** The BaseModel {@code name} in {@code namespace}, if any. */
  static Optional<BaseModel> baseModel(Context<InferenceService> context, String namespace, String name) {
    return source(context, BaseModel.class).get(new ResourceID(name, namespace));
  }

  /** The ClusterBaseModel {@code name}, if any. */
  static Optional<ClusterBaseModel> clusterBaseModel(Context<InferenceService> context, String name) {
    return source(context, ClusterBaseModel.class).get(new ResourceID(name));
  }

  /** The FineTunedWeight {@code name}, if any. */
  static Optional<FineTunedWeight> fineTunedWeight(Context<InferenceService> context, String name) {
    return source(context, FineTunedWeight.class).get(new ResourceID(name));
  }

  /** Every BaseModel, ClusterBaseModel and FineTunedWeight the caches hold, for the node directory rules. */
  static List<ModelPaths.Claimant> allModels(Context<InferenceService> context) {
    List<ModelPaths.Claimant> all = new java.util.ArrayList<>();
    source(context, BaseModel.class).list(m -> true).forEach(m -> all.add(ModelPaths.Claimant.of(m)));
    source(context, ClusterBaseModel.class).list(m -> true).forEach(m -> all.add(ModelPaths.Claimant.of(m)));
    source(context, FineTunedWeight.class).list(m -> true).forEach(m -> all.add(ModelPaths.Claimant.of(m)));
    return all;
  }

  /** The ServingRuntimes of {@code namespace}. */
  static List<ServingRuntime> servingRuntimes(Context<InferenceService> context, String namespace) {
    return source(context, ServingRuntime.class).list(namespace).toList();
  }

  /** Every ClusterServingRuntime. */
  static List<ClusterServingRuntime> clusterServingRuntimes(Context<InferenceService> context) {
    return source(context, ClusterServingRuntime.class).list().toList();
  }

  @SuppressWarnings("unchecked")
  private static <R extends HasMetadata> InformerEventSource<R, InferenceService> source(
      Context<InferenceService> context, Class<R> type) {
    return (InformerEventSource<R, InferenceService>) context.eventSourceRetriever()
        .getEventSourceFor(type, OmeEventSources.sourceName(type));
  }
}
