package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;

/**
 * Points a benchmark at an OME InferenceService on this cluster.
 *
 * @param name Name of the InferenceService.
 * @param namespace Namespace of the InferenceService. It may differ from the benchmark's namespace, provided the
 *     operator may read inference services there.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InferenceServiceReference(@Required String name, @Required String namespace) {
}
