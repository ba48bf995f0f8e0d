package dev.modelplane.api.gie.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;

/**
 * A network port.
 *
 * @param number The port number, 1 to 65535.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Port(@Required @Min(1) @Max(65535) Integer number) {
}
