package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.Objects;

/**
 * The deprecated single-component form of an InferenceService: a pod template with deployment settings plus the
 * model to serve. It is converted when the InferenceService has no engine: the pod-spec and deployment fields
 * become the engine, the container named {@code ome-container} (else the first container) becomes the engine's
 * runner, {@code workerSpec} becomes the engine's worker, {@code model.baseModel} and
 * {@code model.fineTunedWeights} become {@code spec.model}, and {@code model.runtime} becomes
 * {@code spec.runtime}. New InferenceServices should use those fields directly.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@SchemaPatch(PodTemplateSchemas.POD_SPEC_LISTS)
@ValidationRule(value = "!has(self.minAvailable) || !has(self.maxUnavailable)",
    message = "minAvailable and maxUnavailable are mutually exclusive")
public final class PredictorSpec extends ComponentExtensionSpec {
  /** The model to serve and the runtime to serve it with. */
  @JsonProperty("model")
  private ModelSpec model;

  /** Worker pods for serving one replica across several nodes. */
  @JsonProperty("workerSpec")
  private WorkerSpec workerSpec;

  /** Creates an empty predictor spec. */
  public PredictorSpec() {
  }

  public ModelSpec getModel() {
    return model;
  }

  public void setModel(ModelSpec model) {
    this.model = model;
  }

  public WorkerSpec getWorkerSpec() {
    return workerSpec;
  }

  public void setWorkerSpec(WorkerSpec workerSpec) {
    this.workerSpec = workerSpec;
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof PredictorSpec other) || !super.equals(o)) {
      return false;
    }
    return Objects.equals(model, other.model) && Objects.equals(workerSpec, other.workerSpec);
  }

  @Override
  protected boolean canEqual(Object other) {
    return other instanceof PredictorSpec;
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), model, workerSpec);
  }

  @Override
  public String toString() {
    return "PredictorSpec(" + super.toString() + ", " + extensionFields() + ", model=" + model + ", workerSpec="
        + workerSpec + ")";
  }
}
