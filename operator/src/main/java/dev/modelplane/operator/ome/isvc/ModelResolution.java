package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.api.ome.v1beta1.BaseModelSpec;
import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.api.ome.v1beta1.FailureReason;
import dev.modelplane.api.ome.v1beta1.FineTunedWeight;
import dev.modelplane.api.ome.v1beta1.InferenceServiceSpec;
import dev.modelplane.api.ome.v1beta1.ModelRef;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import dev.modelplane.operator.ome.storage.ModelPaths;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Finds the model an InferenceService serves: a BaseModel of its namespace, else a ClusterBaseModel of that name
 * (as in OME, {@code model.kind} does not restrict the lookup), and at most one FineTunedWeight on top of it; a model
 * or weight whose node directory is refused ({@link ModelPaths}) is not served.
 */
final class ModelResolution {
  private static final Set<String> STRATEGIES = Set.of("lora", "tfew");

  private ModelResolution() {
  }

  /** Either the served model or why there is none. */
  sealed interface Result {
  }

  record Found(ServedModel model) implements Result {
  }

  record Missing(OmeStatusAggregator.Blocked blocked) implements Result {
  }

  /**
   * Resolves the model of {@code spec} in {@code namespace}.
   *
   * @param baseModels BaseModels of the namespace by name
   * @param clusterModels ClusterBaseModels by name
   * @param weights FineTunedWeights by name
   * @param dirs the node directory decision of a model or weight ({@link ModelPaths#decide} among every model)
   */
  static Result resolve(InferenceServiceSpec spec, String namespace, Function<String, Optional<BaseModel>> baseModels,
      Function<String, Optional<ClusterBaseModel>> clusterModels,
      Function<String, Optional<FineTunedWeight>> weights, Function<HasMetadata, ModelPaths.Decision> dirs) {
    ModelRef ref = spec.model();
    if (ref == null || ref.name() == null || ref.name().isBlank()) {
      return missing("InvalidSpec", "spec.model.name: the model to serve is required", null);
    }
    String name = ref.name();
    BaseModelKey key;
    BaseModelSpec modelSpec;
    java.util.Map<String, String> annotations;
    HasMetadata object;
    Optional<BaseModel> namespaced = baseModels.apply(name);
    if (namespaced.isPresent()) {
      object = namespaced.get();
      key = BaseModelKey.of(namespaced.get());
      modelSpec = namespaced.get().getSpec();
      annotations = namespaced.get().getMetadata().getAnnotations();
    } else {
      Optional<ClusterBaseModel> cluster = clusterModels.apply(name);
      if (cluster.isEmpty()) {
        return missing("BaseModelNotFound", "spec.model.name: no BaseModel in namespace " + namespace
            + " and no ClusterBaseModel is named " + name, FailureReason.BaseModelNotFound);
      }
      object = cluster.get();
      key = BaseModelKey.of(cluster.get());
      modelSpec = cluster.get().getSpec();
      annotations = cluster.get().getMetadata().getAnnotations();
    }
    if (modelSpec == null) {
      return missing("BaseModelNotFound", "spec.model.name: " + key + " has no spec", FailureReason.BaseModelNotFound);
    }
    if (Boolean.TRUE.equals(modelSpec.disabled())) {
      return missing("BaseModelDisabled", "spec.model.name: " + key + " is disabled (spec.disabled: true)",
          FailureReason.BaseModelNotReady);
    }
    List<String> weightNames = ref.fineTunedWeights() == null ? List.of() : ref.fineTunedWeights();
    if (weightNames.size() > 1) {
      return missing("StackedFineTuningUnsupported", "spec.model.fineTunedWeights: lists " + weightNames.size()
          + " weights; serving several fine-tuned weights stacked on one base model is not supported, name one",
          null);
    }
    FineTunedWeight weight = null;
    if (weightNames.size() == 1) {
      String weightName = weightNames.getFirst();
      Optional<FineTunedWeight> found = weights.apply(weightName);
      if (found.isEmpty()) {
        return missing("FineTunedWeightNotFound", "spec.model.fineTunedWeights: no FineTunedWeight is named "
            + weightName, null);
      }
      weight = found.get();
      String problem = weightProblem(weight, key);
      if (problem != null) {
        return missing("InvalidFineTunedWeight", "spec.model.fineTunedWeights: FineTunedWeight " + weightName + " "
            + problem, null);
      }
    }
    ModelPaths.Decision modelDir = dirs.apply(object);
    if (modelDir instanceof ModelPaths.Decision.Refused refused) {
      return missing(refused.reason(), "spec.model.name: " + key + " may not use its node directory: "
          + refused.describe(), FailureReason.BaseModelNotReady);
    }
    ModelPaths.Decision weightDir = weight == null ? new ModelPaths.Decision.NotOnNode() : dirs.apply(weight);
    if (weightDir instanceof ModelPaths.Decision.Refused refused) {
      return missing(refused.reason(), "spec.model.fineTunedWeights: FineTunedWeight " + weight.getMetadata().getName()
          + " may not use its node directory: " + refused.describe(), null);
    }
    return new Found(new ServedModel(key, annotations, modelSpec, weight, dir(modelDir), dir(weightDir)));
  }

  private static String dir(ModelPaths.Decision decision) {
    return decision instanceof ModelPaths.Decision.OnNode on ? on.path().toString() : null;
  }

  /**
   * Why the weights cannot be served on {@code baseModel}, or null. Their {@code baseModelRef} with a namespace names
   * the BaseModel of that namespace only; without one, a base model of that name of either scope.
   */
  private static String weightProblem(FineTunedWeight weight, BaseModelKey baseModel) {
    var spec = weight.getSpec();
    if (spec == null) {
      return "has no spec";
    }
    if (Boolean.TRUE.equals(spec.disabled())) {
      return "is disabled (spec.disabled: true)";
    }
    if (spec.baseModelRef() != null && spec.baseModelRef().name() != null) {
      String ns = spec.baseModelRef().namespace();
      boolean anyScope = ns == null || ns.isBlank();
      if (!spec.baseModelRef().name().equals(baseModel.name())
          || !anyScope && (baseModel.clusterScoped() || !ns.equals(baseModel.namespace()))) {
        return "was trained on " + (anyScope ? spec.baseModelRef().name() : new BaseModelKey(ns,
            spec.baseModelRef().name()).toString()) + ", not on " + baseModel;
      }
    }
    var strategy = spec.hyperParameters() == null ? null : spec.hyperParameters().get("strategy");
    if (strategy == null || !strategy.isTextual()) {
      return "has no spec.hyperParameters.strategy (lora or tfew)";
    }
    if (!STRATEGIES.contains(strategy.asText().toLowerCase(Locale.ROOT))) {
      return "has strategy " + strategy.asText() + "; supported: lora, tfew";
    }
    return null;
  }

  private static Missing missing(String reason, String message, FailureReason failure) {
    return new Missing(new OmeStatusAggregator.Blocked(OmeStatusAggregator.MODEL_RESOLVED, reason, message, failure));
  }
}
