package dev.modelplane.api.gie.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/**
 * The state of a pool as reported by each parent (gateway) that references it.
 *
 * @param parents One entry per parent (a Gateway) that routes to this pool, written by that parent's controller,
 *     which leaves the other controllers' entries alone. An empty list means no parent is associated with the pool.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InferencePoolStatus(
    @Size(max = 32) @SchemaPatch(Schemas.ATOMIC_LIST) List<ParentStatus> parents) {
}
