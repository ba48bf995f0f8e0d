package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;

/**
 * The serving runtime an InferenceService uses, by name. A ServingRuntime of that name in the InferenceService's
 * namespace is used if there is one, else the ClusterServingRuntime of that name. A runtime named here must
 * support the model but need not allow auto-selection.
 *
 * @param name Name of the ServingRuntime or ClusterServingRuntime.
 * @param kind Kind of the referenced runtime, {@code ClusterServingRuntime} by default. Upstream OME looks the name
 *     up in the namespace first and then at cluster scope whatever this says.
 * @param apiGroup API group of the referenced runtime, {@code ome.io} by default.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ServingRuntimeRef(
    @Required String name,
    @Default("ClusterServingRuntime") String kind,
    @Default("ome.io") String apiGroup) {
}
