package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * The model sizes, in parameters, a runtime is meant for: a model whose {@code modelParameterSize} lies within
 * {@code [min, max]} (both inclusive) qualifies. Sizes are numbers with an optional suffix {@code M} (millions),
 * {@code B} (billions) or {@code T} (trillions), e.g. {@code 500M}, {@code 7B}, {@code 1.5T}. During
 * auto-selection runtimes whose range hugs the model's size more tightly are preferred. Both bounds are required
 * together (upstream OME fails on a range with one bound).
 *
 * @param min Smallest supported model size.
 * @param max Largest supported model size.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "has(self.min) == has(self.max)", message = "min and max must be set together")
public record ModelSizeRangeSpec(
    @Pattern(ModelSizeRangeSpec.SIZE) String min,
    @Pattern(ModelSizeRangeSpec.SIZE) String max) {
  /** A parameter count with an optional M, B or T suffix. */
  public static final String SIZE = "^[0-9]+(\\.[0-9]+)?[MBT]?$";
}
