package dev.modelplane.api.gie.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * Observed state of an objective.
 *
 * @param conditions Conditions of the objective; {@code Ready} tells whether the objective is accepted and in use.
 *     A new objective starts with {@code Ready=Unknown}, reason {@code Pending}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InferenceObjectiveStatus(
    @Size(max = 8) @SchemaPatch(Schemas.READY_PENDING_CONDITIONS) List<Condition> conditions) {
}
