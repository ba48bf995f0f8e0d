package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * Points a benchmark at an InferenceService on this cluster: an OME one (the default) or an LLMKube one.
 *
 * @param name Name of the InferenceService.
 * @param namespace Namespace of the InferenceService. It may differ from the benchmark's namespace, provided the
 *     operator may read inference services there.
 * @param apiGroup API group of the InferenceService: {@code ome.io} (the default) or {@code inference.llmkube.dev}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InferenceServiceReference(
    @Required String name,
    @Required String namespace,
    @ValidationRule(value = "self in ['ome.io', 'inference.llmkube.dev']",
        message = "apiGroup must be ome.io or inference.llmkube.dev")
    String apiGroup) {

  /** The API group of OME's InferenceService, the default. */
  public static final String OME = "ome.io";
  /** The API group of LLMKube's InferenceService. */
  public static final String LLMKUBE = "inference.llmkube.dev";

  /** Reference to an OME InferenceService. */
  public InferenceServiceReference(String name, String namespace) {
    this(name, namespace, null);
  }

  /** Whether this names an LLMKube InferenceService. */
  public boolean llmkube() {
    return LLMKUBE.equals(apiGroup);
  }
}
