package dev.modelplane.api.gie.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * How the model name of a request is compared.
 *
 * @param type The kind of comparison; {@code Exact}, the default and for now the only one, compares the whole name,
 *     case included.
 * @param value The model name the request's is compared with.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModelMatch(@Default("Exact") ModelMatchType type, @Required @Size(min = 1) String value) {
}
