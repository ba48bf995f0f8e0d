package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;

/**
 * How many copies of the model are loaded.
 *
 * @param failedCopies Copies that recently failed to load; 0 by default.
 * @param totalCopies Copies currently loaded (ready pods serving the model).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModelCopies(
    @Required @Default("0") Integer failedCopies,
    Integer totalCopies) {
}
