package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * The decoder: in prefill-decode disaggregated serving, the pods that generate tokens after the engine has
 * processed the prompt. Shaped like the engine, and only used together with one. A decoder always runs as a
 * Deployment or, with a leader or worker, as a LeaderWorkerSet (never serverless).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@SchemaPatch(PodTemplateSchemas.POD_SPEC_LISTS)
@ValidationRule(value = "!has(self.minAvailable) || !has(self.maxUnavailable)",
    message = "minAvailable and maxUnavailable are mutually exclusive")
public final class DecoderSpec extends MultiNodeComponentSpec {
  /** Creates an empty decoder spec. */
  public DecoderSpec() {
  }

  @Override
  protected boolean canEqual(Object other) {
    return other instanceof DecoderSpec;
  }
}
