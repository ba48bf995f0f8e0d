package dev.modelplane.api.gie.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;

/**
 * One condition a request must meet for a rewrite rule to apply.
 *
 * @param model The comparison with the {@code model} field of the request body.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModelRewriteMatch(@Required ModelMatch model) {
}
