package dev.modelplane.operator.ome.basemodel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.api.ome.v1beta1.FineTunedWeight;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.EventRecorder;
import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import dev.modelplane.operator.ome.storage.BaseModelValidator;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * OME FineTunedWeights (cluster-scoped), placed on nodes by the model agents like ClusterBaseModels: status from the
 * agents' reports ({@code nodesReady}, {@code nodesFailed}, {@code state}), finalizer
 * {@code finetunedweights.ome.io/finalizer} so a deleted weight waits for the agents to remove its files.
 */
@ControllerConfiguration(name = FineTunedWeightReconciler.NAME)
public class FineTunedWeightReconciler extends BaseModelController<FineTunedWeight> {
  public static final String NAME = "ome-finetunedweight";
  private static final Set<String> STRATEGIES = Set.of("lora", "tfew");

  public FineTunedWeightReconciler(OperatorSettings settings, EventRecorder events, Clock clock) {
    super(settings, events, clock, FineTunedWeight.class, FineTunedWeight::new);
  }

  @Override
  protected List<FieldProblem> validate(FineTunedWeight weight, BaseModelKey key) {
    List<FieldProblem> problems = new ArrayList<>(BaseModelValidator.validate(
        weight.getSpec() == null ? null : weight.getSpec().storage(), true));
    JsonNode strategy = weight.getSpec() == null || weight.getSpec().hyperParameters() == null ? null
        : weight.getSpec().hyperParameters().get("strategy");
    if (strategy == null || !strategy.isTextual()) {
      problems.add(FieldProblem.fatal("spec.hyperParameters.strategy", "MissingStrategy", "is required (lora or "
          + "tfew); InferenceServices cannot serve this weight without it"));
    } else if (!STRATEGIES.contains(strategy.asText().toLowerCase(Locale.ROOT))) {
      problems.add(FieldProblem.fatal("spec.hyperParameters.strategy", "UnsupportedStrategy", strategy.asText()
          + " is not served; supported: lora, tfew"));
    }
    return problems;
  }
}
