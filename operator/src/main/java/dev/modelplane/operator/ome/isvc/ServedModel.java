package dev.modelplane.operator.ome.isvc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.api.ome.v1beta1.BaseModelSpec;
import dev.modelplane.api.ome.v1beta1.FineTunedWeight;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import java.util.Locale;
import java.util.Map;

/**
 * The model an InferenceService serves, resolved: the BaseModel or ClusterBaseModel and, for fine-tuned serving,
 * its one FineTunedWeight.
 *
 * @param key which BaseModel or ClusterBaseModel
 * @param annotations the model object's annotations (e.g. {@code models.ome.io/category})
 * @param spec the model's spec
 * @param fineTuned the FineTunedWeight served on top of it, or null
 * @param modelDir the model's node directory as {@code ModelPaths} decided it, or null when it decided none (then no
 *     node directory is mounted)
 * @param weightDir the FineTunedWeight's node directory, or null
 */
public record ServedModel(BaseModelKey key, Map<String, String> annotations, BaseModelSpec spec,
    FineTunedWeight fineTuned, String modelDir, String weightDir) {
  /** Model annotation naming its size class, copied to the {@code base-model-size} label. */
  public static final String CATEGORY_ANNOTATION = "models.ome.io/category";

  public ServedModel {
    annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
  }

  /** The model's name. */
  public String name() {
    return key.name();
  }

  /** Whether a FineTunedWeight is served. */
  public boolean fineTunedServing() {
    return fineTuned != null;
  }

  /** Whether the FineTunedWeight holds merged weights, served as a model of their own without the base model. */
  public boolean mergedWeights() {
    if (fineTuned == null || fineTuned.getSpec().configuration() == null) {
      return false;
    }
    JsonNode merged = fineTuned.getSpec().configuration().get("merged_weights");
    return merged != null && (merged.asBoolean(false) || "true".equalsIgnoreCase(merged.asText()));
  }

  /** The fine-tuning strategy ({@code hyperParameters.strategy}, lower case), or null. */
  public String strategy() {
    if (fineTuned == null || fineTuned.getSpec().hyperParameters() == null) {
      return null;
    }
    JsonNode strategy = fineTuned.getSpec().hyperParameters().get("strategy");
    return strategy == null || !strategy.isTextual() ? null : strategy.asText().toLowerCase(Locale.ROOT);
  }

  /** The size class for the {@code base-model-size} label: the category annotation, else {@code SMALL}. */
  public String category() {
    return annotations.getOrDefault(CATEGORY_ANNOTATION, "SMALL");
  }
}
