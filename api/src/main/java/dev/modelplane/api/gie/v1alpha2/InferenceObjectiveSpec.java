package dev.modelplane.api.gie.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;

/**
 * What an objective asks of its pool.
 *
 * @param priority Relative importance of the objective's requests. Higher values are served first when the pool is
 *     saturated; negative values mark requests as sheddable, which are rejected with 429 rather than queued when
 *     there is no capacity. Unset means 0.
 * @param poolRef The InferencePool, in the same namespace, whose requests this objective describes.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InferenceObjectiveSpec(Integer priority, @Required PoolObjectReference poolRef) {
}
