package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterServingRuntime;
import dev.modelplane.api.ome.v1beta1.FineTunedWeight;
import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.InferenceServiceSpec;
import dev.modelplane.api.ome.v1beta1.ServingRuntime;
import dev.modelplane.operator.OperatorSettings;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * What the operator would create for an OME InferenceService, computed from given objects instead of the cluster:
 * the entry point of {@code modelplane render} into the same resolution, runtime choice and builders the
 * controller uses. Owner references are left out (they need the live object's uid).
 */
public final class OmeServingPreview {
  private OmeServingPreview() {
  }

  /**
   * The preview of one service.
   *
   * @param runtime how the runtime was chosen, or null
   * @param objects the objects, empty when the service cannot be served
   * @param error why it cannot be served, or null
   */
  public record Preview(String runtime, List<HasMetadata> objects, String error) {
  }

  public static Preview preview(InferenceService isvc, Function<String, Optional<BaseModel>> baseModels,
      Function<String, Optional<ClusterBaseModel>> clusterModels,
      Function<String, Optional<FineTunedWeight>> weights, List<ServingRuntime> namespaceRuntimes,
      List<ClusterServingRuntime> clusterRuntimes, OperatorSettings settings) {
    InferenceServiceSpec spec = PredictorConversion.effective(isvc.getSpec());
    // Only the objects given are known: the directory rules apply, overlaps with models elsewhere cannot be seen.
    dev.modelplane.operator.ome.storage.ModelPaths paths = settings.modelStorage().paths();
    ModelResolution.Result model = ModelResolution.resolve(spec, isvc.getMetadata().getNamespace(), baseModels,
        clusterModels, weights, m -> paths.own(dev.modelplane.operator.ome.storage.ModelPaths.Claimant.of(m)));
    if (model instanceof ModelResolution.Missing missing) {
      return new Preview(null, List.of(), missing.blocked().message());
    }
    ServedModel served = ((ModelResolution.Found) model).model();
    return switch (OmeServingPlanner.plan(isvc, spec, served, namespaceRuntimes, clusterRuntimes, settings)) {
      case OmeServingPlanner.Blocked blocked -> new Preview(null, List.of(), blocked.blocked().message());
      case OmeServingPlanner.Planned planned -> {
        planned.plan().objects().forEach(o -> o.getMetadata().setNamespace(isvc.getMetadata().getNamespace()));
        yield new Preview(planned.plan().runtime(), planned.plan().objects(), null);
      }
    };
  }
}
