package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Observed state of a serving runtime. Runtimes are templates and report nothing yet. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ServingRuntimeStatus() {
}
