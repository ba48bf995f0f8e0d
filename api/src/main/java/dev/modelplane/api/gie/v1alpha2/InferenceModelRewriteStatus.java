package dev.modelplane.api.gie.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * Observed state of a rewrite.
 *
 * @param conditions Conditions of the rewrite; {@code Accepted} tells whether the rewrite is valid and applied to its
 *     pool. A new rewrite starts with {@code Accepted=Unknown}, reason {@code Pending}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InferenceModelRewriteStatus(
    @Size(max = 8) @SchemaPatch(Schemas.ACCEPTED_PENDING_CONDITIONS) List<Condition> conditions) {
}
