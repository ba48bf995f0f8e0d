package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * The engine: the pods that run the model server. Every InferenceService needs one. In prefill-decode
 * disaggregated serving the engine handles the prefill phase and a decoder the token generation. The full pod
 * spec (containers, init containers, sidecars, volumes, scheduling) can be given here; in a serving runtime the
 * same fields form the template an InferenceService's engine is merged over.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@SchemaPatch(PodTemplateSchemas.POD_SPEC_LISTS)
@ValidationRule(value = "!has(self.minAvailable) || !has(self.maxUnavailable)",
    message = "minAvailable and maxUnavailable are mutually exclusive")
public final class EngineSpec extends MultiNodeComponentSpec {
  /** Creates an empty engine spec. */
  public EngineSpec() {
  }

  @Override
  protected boolean canEqual(Object other) {
    return other instanceof EngineSpec;
  }
}
